package app_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"

	"kestrel/app"
	"kestrel/metrics/metricstest"
)

// scrape GETs /metrics with an optional bearer token.
func (s *server) scrape(token string) (int, http.Header, []byte) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.url+"/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.StatusCode, res.Header, body
}

// families scrapes and parses /metrics with Prometheus's text parser.
func (s *server) families(token string) (map[string]*dto.MetricFamily, []byte) {
	s.t.Helper()
	code, _, body := s.scrape(token)
	if code != 200 {
		s.t.Fatalf("GET /metrics: %d %s", code, body)
	}
	fams, err := metricstest.Parse(bytes.NewReader(body))
	if err != nil {
		s.t.Fatalf("parse /metrics: %v", err)
	}
	return fams, body
}

// sample is the value of the family's sample carrying all the given labels
// (counter, gauge or untyped), and whether there is one.
func sample(f *dto.MetricFamily, labels map[string]string) (float64, bool) {
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range labels {
			match = match && have[k] == v
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		}
	}
	return 0, false
}

// TestMetricsFollowPrometheusConventions scrapes a whole server after an
// order, a fill and a WebSocket client, and checks every family against the
// naming rules, promlint and the README's list of metrics.
func TestMetricsFollowPrometheusConventions(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(s.url, "http", "ws", 1)+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`); !r.Success {
		t.Fatalf("market buy: %+v", r)
	}
	if r := s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"ETH-USD","side":"BUY","quantity":0.1,"price":100}`); !r.Success {
		t.Fatalf("limit buy: %+v", r)
	}

	// The order counters follow the exchange's update stream: wait for the fill.
	var fams map[string]*dto.MetricFamily
	var body []byte
	for i := 0; i < 100; i++ {
		if fams, body = s.families(""); fams["kestrel_fills_total"] != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	problems, err := metricstest.Problems(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("/metrics breaks the conventions:\n%s", strings.Join(problems, "\n"))
	}

	for _, w := range []struct {
		family string
		labels map[string]string
		min    float64
	}{
		{"kestrel_fills_total", map[string]string{"symbol": "BTC-USD", "side": "BUY"}, 1},
		{"kestrel_orders_total", map[string]string{"type": "market", "status": "filled"}, 1},
		{"kestrel_orders_total", map[string]string{"type": "limit", "status": "open"}, 1},
		{"kestrel_http_requests_total", map[string]string{"route": "POST /api/trading/execute", "method": "POST", "code": "201"}, 1},
		{"kestrel_websocket_clients", nil, 1},
	} {
		f := fams[w.family]
		if f == nil {
			t.Errorf("%s: not in the scrape", w.family)
			continue
		}
		if v, ok := sample(f, w.labels); !ok || v < w.min {
			t.Errorf("%s%v = %v (present %v), want at least %v", w.family, w.labels, v, ok, w.min)
		}
	}
	checkDocumented(t, fams)
}

// checkDocumented compares the scrape's kestrel_ families with the README's
// Metrics table (name and type), so the list operators read stays true.
func checkDocumented(t *testing.T, fams map[string]*dto.MetricFamily) {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(kestrel_[a-z0-9_]+)` \\| (counter|gauge|histogram|summary) \\|").FindAllStringSubmatch(string(readme), -1) {
		documented[m[1]] = m[2]
	}
	if len(documented) == 0 {
		t.Fatal("README has no Metrics table")
	}
	var served []string
	for name, f := range fams {
		if !strings.HasPrefix(name, "kestrel_") {
			continue
		}
		served = append(served, name)
		typ := strings.ToLower(f.GetType().String())
		if documented[name] != typ {
			t.Errorf("%s is a %s; the README says %q", name, typ, documented[name])
		}
	}
	for name := range documented {
		if fams[name] == nil {
			t.Errorf("the README lists %s, which /metrics does not serve", name)
		}
	}
	sort.Strings(served)
	t.Logf("%d families, %d of them Kestrel's: %s", len(fams), len(served), strings.Join(served, " "))
}

// TestMetricsToken: with a metrics token configured, /metrics answers 401
// (the error envelope) without it or with another, and the scrape with it.
func TestMetricsToken(t *testing.T) {
	const token = "scrape-8f3a.Kq_~+/="
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.MetricsToken = token })
	for _, c := range []struct{ name, header string }{
		{"no header", ""},
		{"another token", "Bearer " + token + "x"},
		{"a prefix of it", "Bearer " + token[:5]},
		{"not a bearer", "Basic " + token},
	} {
		req, _ := http.NewRequest("GET", s.url+"/metrics", nil)
		if c.header != "" {
			req.Header.Set("Authorization", c.header)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 401 || !strings.Contains(string(body), `"code":"unauthorized"`) || strings.Contains(string(body), "kestrel_") {
			t.Errorf("%s: %d %.200s, want a 401 envelope", c.name, res.StatusCode, body)
		}
		if got := res.Header.Get("WWW-Authenticate"); got != `Bearer realm="metrics"` {
			t.Errorf("%s: WWW-Authenticate %q", c.name, got)
		}
	}
	fams, _ := s.families(token)
	if fams["kestrel_http_requests_total"] == nil {
		t.Errorf("scrape with the token has no request counter")
	}
	// The API's own bearer tokens are sessions, not this one: the token opens
	// /metrics only.
	if r := s.do("GET", "/api/auth/me", token, ""); r.Status != 401 {
		t.Errorf("metrics token on the API: %d", r.Status)
	}
	// The effective configuration says a token is required, never which.
	op, _ := s.accounts()
	r := s.do("GET", "/api/system/config", op, "")
	if !strings.Contains(string(r.Data), `"metrics":"bearer token required"`) || strings.Contains(string(r.Data), token) {
		t.Errorf("system config: %s", r.Data)
	}
}
