package metricstest

import (
	"slices"
	"strings"
	"testing"
)

func TestProblemsAcceptsConventionalNames(t *testing.T) {
	scrape := `# HELP kestrel_orders_total Order state changes.
# TYPE kestrel_orders_total counter
kestrel_orders_total{type="market",status="filled"} 3
# HELP kestrel_websocket_clients Connected realtime clients.
# TYPE kestrel_websocket_clients gauge
kestrel_websocket_clients 1
# HELP kestrel_market_tick_age_seconds Seconds since the last tick.
# TYPE kestrel_market_tick_age_seconds gauge
kestrel_market_tick_age_seconds 0.4
# HELP kestrel_http_request_duration_seconds Request latency.
# TYPE kestrel_http_request_duration_seconds histogram
kestrel_http_request_duration_seconds_bucket{le="0.1"} 1
kestrel_http_request_duration_seconds_bucket{le="+Inf"} 1
kestrel_http_request_duration_seconds_sum 0.01
kestrel_http_request_duration_seconds_count 1
# HELP process_cpu_seconds_total CPU time.
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 1.5
`
	got, err := Problems([]byte(scrape))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("problems in a conventional scrape:\n%s", strings.Join(got, "\n"))
	}
}

// Each case breaks one rule; the problem list must name it.
func TestProblemsFindsEachBrokenRule(t *testing.T) {
	cases := []struct {
		name, scrape, want string
	}{
		{"gauge ending in _total", "# HELP kestrel_ticks_dropped_total Dropped.\n# TYPE kestrel_ticks_dropped_total gauge\nkestrel_ticks_dropped_total 2\n",
			"kestrel_ticks_dropped_total: a gauge must not end in _total (only counters do)"},
		{"counter without _total", "# HELP kestrel_fills Fills.\n# TYPE kestrel_fills counter\nkestrel_fills 2\n",
			"kestrel_fills: a counter's name must end in _total"},
		{"no prefix", "# HELP http_requests_total Requests.\n# TYPE http_requests_total counter\nhttp_requests_total 2\n",
			"http_requests_total: name does not match ^kestrel_[a-z0-9_]+$"},
		{"camel case", "# HELP kestrel_wsClients Clients.\n# TYPE kestrel_wsClients gauge\nkestrel_wsClients 2\n",
			"kestrel_wsClients: name does not match ^kestrel_[a-z0-9_]+$"},
		{"no help", "# TYPE kestrel_websocket_clients gauge\nkestrel_websocket_clients 2\n",
			"kestrel_websocket_clients: no help text"},
		{"time without its unit", "# HELP kestrel_market_tick_age Age.\n# TYPE kestrel_market_tick_age gauge\nkestrel_market_tick_age 2\n",
			`kestrel_market_tick_age: "age" is measured in seconds: the name must end in _seconds`},
		{"non-base unit", "# HELP kestrel_request_latency_ms Latency.\n# TYPE kestrel_request_latency_ms histogram\nkestrel_request_latency_ms_bucket{le=\"+Inf\"} 1\nkestrel_request_latency_ms_sum 1\nkestrel_request_latency_ms_count 1\n",
			`kestrel_request_latency_ms: unit "ms" is not a base unit: use seconds`},
		{"promlint: non-base unit it knows", "# HELP kestrel_cache_minutes Cache.\n# TYPE kestrel_cache_minutes gauge\nkestrel_cache_minutes 2\n",
			`kestrel_cache_minutes: promlint: use base unit "seconds" instead of "minutes"`},
		{"promlint: type in a name", "# HELP kestrel_queue_gauge Queue.\n# TYPE kestrel_queue_gauge gauge\nkestrel_queue_gauge 2\n",
			"kestrel_queue_gauge: promlint: metric name should not include type 'gauge'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Problems([]byte(c.scrape))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(got, c.want) {
				t.Errorf("problems %q\nwant among them %q", got, c.want)
			}
		})
	}
}

func TestProblemsRefusesWhatDoesNotParse(t *testing.T) {
	if _, err := Problems([]byte("# TYPE kestrel_x gauge\nkestrel_x not-a-number\n")); err == nil {
		t.Error("a malformed scrape parsed")
	}
}
