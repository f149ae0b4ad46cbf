package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"kestrel/alert"
	"kestrel/auth"
	"kestrel/cluster"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/ops/marketwatch"
	"kestrel/store/sqlite"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// sources are the health signals the status reads, set by each case.
type sources struct {
	mu       sync.Mutex
	exchange domain.ExchangeHealth
	beat     time.Time
}

func (s *sources) health() domain.ExchangeHealth { s.mu.Lock(); defer s.mu.Unlock(); return s.exchange }
func (s *sources) lastBeat() time.Time           { s.mu.Lock(); defer s.mu.Unlock(); return s.beat }

type status struct {
	Overall  string `json:"overall_status"`
	Key      string `json:"exchange_api_key"`
	Exchange struct {
		Status      string     `json:"status"`
		LastSuccess *time.Time `json:"last_success"`
		LastError   *string    `json:"last_error"`
		FeedAge     float64    `json:"feed_age_seconds"`
	} `json:"exchange_api"`
	Engine struct {
		Status   string  `json:"status"`
		BeatAge  float64 `json:"heartbeat_age_seconds"`
		Uptime   int64   `json:"uptime_seconds"`
		Halted   bool    `json:"trading_halted"`
		LastBeat *string `json:"last_heartbeat"`
	} `json:"trading_engine"`
	Market struct {
		Status string  `json:"status"`
		Age    float64 `json:"last_tick_age_seconds"`
	} `json:"market_data"`
}

func TestSystemStatusFromHealthSources(t *testing.T) {
	started := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	now := started.Add(time.Hour)
	ok := domain.ExchangeHealth{LastCommit: now.Add(-5 * time.Minute), LastQuote: now.Add(-time.Second)}
	failed := ok
	failed.LastError, failed.LastErrorAt = "disk I/O error", now.Add(-time.Minute)
	for _, tc := range []struct {
		name                          string
		exchange                      domain.ExchangeHealth
		beat                          time.Time
		wantExchange, wantEngine, all string
	}{
		{"all well", ok, now.Add(-time.Second), "healthy", "running", "healthy"},
		{"last journal write failed", failed, now.Add(-time.Second), "degraded", "running", "degraded"},
		{"no quote for 45 s", domain.ExchangeHealth{LastQuote: now.Add(-45 * time.Second)}, now.Add(-time.Second), "degraded", "running", "degraded"},
		{"no quote for 3 min", domain.ExchangeHealth{LastQuote: now.Add(-3 * time.Minute)}, now.Add(-time.Second), "unhealthy", "running", "unhealthy"},
		{"never a quote an hour in", domain.ExchangeHealth{}, now.Add(-time.Second), "unhealthy", "running", "unhealthy"},
		{"engine stopped beating", ok, now.Add(-15 * time.Second), "healthy", "stale", "unhealthy"},
		{"engine never beat", ok, time.Time{}, "healthy", "stale", "unhealthy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{t: now}
			src := &sources{exchange: tc.exchange, beat: tc.beat}
			get := statusAPI(t, clk, started, src)
			st := get()
			if st.Key != "exchange_api" || st.Exchange.Status != tc.wantExchange || st.Engine.Status != tc.wantEngine || st.Overall != tc.all {
				t.Fatalf("exchange %q, engine %q, overall %q; want %q, %q, %q (%+v)",
					st.Exchange.Status, st.Engine.Status, st.Overall, tc.wantExchange, tc.wantEngine, tc.all, st)
			}
		})
	}
}

// The entries follow their sources over time: a feed going quiet degrades
// then fails the exchange; the engine goes stale without heartbeats and
// recovers with the next one.
func TestSystemStatusFollowsTheSources(t *testing.T) {
	started := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	clk := &clock{t: started.Add(time.Second)}
	src := &sources{exchange: domain.ExchangeHealth{LastQuote: started}, beat: started}
	get := statusAPI(t, clk, started, src)
	st := get()
	if st.Exchange.Status != "healthy" || st.Engine.Status != "running" || st.Exchange.FeedAge != 1 || st.Engine.BeatAge != 1 {
		t.Fatalf("at start: %+v", st)
	}
	if st.Exchange.LastSuccess != nil || st.Exchange.LastError != nil {
		t.Fatalf("no write yet, yet last_success %v, last_error %v", st.Exchange.LastSuccess, st.Exchange.LastError)
	}
	clk.set(started.Add(20 * time.Second)) // neither quotes nor beats since start
	if st = get(); st.Exchange.Status != "healthy" || st.Engine.Status != "stale" || st.Engine.BeatAge != 20 {
		t.Fatalf("20 s without heartbeats: %+v", st)
	}
	src.mu.Lock()
	src.beat = started.Add(19 * time.Second)
	src.mu.Unlock()
	clk.set(started.Add(40 * time.Second))
	if st = get(); st.Exchange.Status != "degraded" || st.Exchange.FeedAge != 40 || st.Engine.Status != "stale" {
		t.Fatalf("40 s without a quote: %+v", st)
	}
	src.mu.Lock()
	src.beat = started.Add(39 * time.Second)
	src.exchange.LastError, src.exchange.LastErrorAt = "database is locked", started.Add(39*time.Second)
	src.mu.Unlock()
	if st = get(); st.Engine.Status != "running" || st.Exchange.LastError == nil || *st.Exchange.LastError != "database is locked" {
		t.Fatalf("beating again, write failed: %+v", st)
	}
	clk.set(started.Add(3 * time.Minute))
	if st = get(); st.Exchange.Status != "unhealthy" || st.Overall != "unhealthy" {
		t.Fatalf("3 min without a quote: %+v", st)
	}
}

// The feed is graded by the configured staleness threshold, the one the
// 'Market data stale' alert and the automation pause use: stale past it
// (the exchange and the market entry degraded), the exchange unhealthy past
// four of it. The zero watcher is the default 30 s.
func TestSystemStatusGradesTheFeedByTheConfiguredThreshold(t *testing.T) {
	started := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	now := started.Add(time.Hour)
	for _, tc := range []struct {
		name                           string
		after, silent                  time.Duration
		wantExchange, wantMarket, want string
	}{
		{"1 s threshold, silent 0.5 s", time.Second, 500 * time.Millisecond, "healthy", "healthy", "healthy"},
		{"1 s threshold, silent 2 s", time.Second, 2 * time.Second, "degraded", "degraded", "degraded"},
		{"1 s threshold, silent 5 s", time.Second, 5 * time.Second, "unhealthy", "degraded", "unhealthy"},
		{"default, silent 20 s", 0, 20 * time.Second, "healthy", "healthy", "healthy"},
		{"default, silent 45 s", 0, 45 * time.Second, "degraded", "degraded", "degraded"},
		{"default, silent 3 min", 0, 3 * time.Minute, "unhealthy", "degraded", "unhealthy"},
		{"5 min threshold, silent 3 min", 5 * time.Minute, 3 * time.Minute, "healthy", "healthy", "healthy"},
		{"5 min threshold, silent 6 min", 5 * time.Minute, 6 * time.Minute, "degraded", "degraded", "degraded"},
		{"5 min threshold, silent 21 min", 5 * time.Minute, 21 * time.Minute, "unhealthy", "degraded", "unhealthy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &sources{exchange: domain.ExchangeHealth{LastQuote: now.Add(-tc.silent)}, beat: now}
			st := statusAPI(t, &clock{t: now}, started, src, func(d *httpapi.Deps) {
				d.MarketWatch = marketwatch.Watcher{After: tc.after}
				d.MarketAge = func() time.Duration { return tc.silent }
			})()
			if st.Exchange.Status != tc.wantExchange || st.Market.Status != tc.wantMarket || st.Overall != tc.want {
				t.Fatalf("exchange %q, market %q, overall %q; want %q, %q, %q (%+v)",
					st.Exchange.Status, st.Market.Status, st.Overall, tc.wantExchange, tc.wantMarket, tc.want, st)
			}
		})
	}
}

// statusAPI serves the router on clk with the given sources and returns a
// signed-in reader of /api/system/status.
func statusAPI(t *testing.T, clk *clock, started time.Time, src *sources, more ...func(*httpapi.Deps)) func() status {
	t.Helper()
	get := rawStatusAPI(t, clk, started, src, nil, more...)
	return func() status {
		t.Helper()
		var st status
		if raw := get(); json.Unmarshal(raw, &st) != nil {
			t.Fatalf("status: %s", raw)
		}
		return st
	}
}

// rawStatusAPI is statusAPI's reader with the cluster view given (nil: alone),
// returning the reply's data as sent (the test client checks it against the
// OpenAPI description); more sets further dependencies.
func rawStatusAPI(t *testing.T, clk *clock, started time.Time, src *sources, view func() cluster.View, more ...func(*httpapi.Deps)) func() json.RawMessage {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	a := auth.NewService(store, clk, 24*time.Hour)
	d := httpapi.Deps{Store: store, Auth: a, Clock: clk, Started: started, Alerts: alert.New(store, nil, clk), ExchangeHealth: src.health, EngineBeat: src.lastBeat, Cluster: view}
	for _, f := range more {
		f(&d)
	}
	s := httpapi.New(d)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); store.Close() })
	api := &testAPI{t: t, srv: srv, store: store, auth: a}
	token, _ := api.register("op@example.com", "Olga", "operator-pass")
	return func() json.RawMessage {
		t.Helper()
		r := api.do("GET", "/api/system/status", token, "")
		if r.Status != 200 {
			t.Fatalf("status: %d %s", r.Status, r.Raw)
		}
		return r.Data
	}
}

// An instance of a cluster lists itself, the leader and the live instances.
func TestSystemStatusShowsTheCluster(t *testing.T) {
	started := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	now := started.Add(time.Minute)
	src := &sources{exchange: domain.ExchangeHealth{LastQuote: now}, beat: now}
	view := cluster.View{Instance: "b", Leader: "a", Instances: []cluster.Member{
		{ID: "a", Addr: "10.0.0.1:8080", Leader: true, Started: started, LastSeen: now.Add(-time.Second)},
		{ID: "b", Addr: "10.0.0.2:8080", Started: started.Add(time.Second), LastSeen: now},
	}}
	raw := rawStatusAPI(t, &clock{t: now}, started, src, func() cluster.View { return view })()
	var got struct {
		Cluster cluster.View `json:"cluster"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Cluster.Instance != "b" || got.Cluster.Leader != "a" || len(got.Cluster.Instances) != 2 || !got.Cluster.Instances[0].Leader ||
		!got.Cluster.Instances[1].LastSeen.Equal(now) {
		t.Fatalf("cluster %+v, want %+v", got.Cluster, view)
	}
}
