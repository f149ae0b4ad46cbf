package routemux

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// echo answers the pattern that served the request and its path values.
func echo(names ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := r.Pattern
		for _, n := range names {
			out += " " + n + "=" + r.PathValue(n)
		}
		_, _ = w.Write([]byte(out))
	})
}

func TestOverlappingPatternsEachServeTheirOwnPaths(t *testing.T) {
	mux := http.NewServeMux()
	Mount(mux, []Entry{
		{"POST /api/strategy/{name}/enable", echo("name")},
		{"POST /api/strategy/{name}/disable", echo("name")},
		{"POST /api/strategy/ai-analyze/{symbol}", echo("symbol")},
		{"POST /api/strategy", echo()},
		{"GET /api/strategy/config/{name}", echo("name")},
	}, http.NotFoundHandler()) // ServeMux alone panics on the third
	for path, want := range map[string]string{
		"/api/strategy/technical/enable":     "POST /api/strategy/{name}/enable name=technical",
		"/api/strategy/technical/disable":    "POST /api/strategy/{name}/disable name=technical",
		"/api/strategy/ai-analyze/BTC-USD":   "POST /api/strategy/ai-analyze/{symbol} symbol=BTC-USD",
		"/api/strategy/ai-analyze/enable":    "POST /api/strategy/ai-analyze/{symbol} symbol=enable", // literal first
		"/api/strategy/a%2Fb/enable":         "POST /api/strategy/{name}/enable name=a/b",
		"/api/strategy":                      "POST /api/strategy",
		"/api/strategy/technical/frobnicate": "404",
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", path, nil)
		mux.ServeHTTP(rec, req)
		got := rec.Body.String()
		if rec.Code == 404 {
			got = "404"
		}
		if got != want {
			t.Errorf("POST %s: %q, want %q", path, got, want)
		}
		if _, p := Resolve(mux, httptest.NewRequest("POST", path, nil)); want != "404" && !strings.HasPrefix(want+" ", p+" ") {
			t.Errorf("Resolve(POST %s) = %q", path, p)
		}
	}
	if rec := httptest.NewRecorder(); true {
		mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/strategy/config/x", nil))
		if rec.Body.String() != "GET /api/strategy/config/{name} name=x" {
			t.Errorf("an ordinary pattern: %q", rec.Body.String())
		}
	}
}

func TestConflictIsServeMuxsRule(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"POST /s/{n}/enable", "POST /s/ai/{sym}", true},
		{"POST /s/{n}/enable", "POST /s/{n}/disable", false},   // no request in common
		{"POST /s/ai/{sym}", "POST /s/{n}/{a}", false},         // the first is more specific
		{"GET /s/{n}/enable", "POST /s/ai/{sym}", false},       // other methods
		{"POST /s/{n}/enable", "POST /s/ai/{sym}/more", false}, // other lengths
	} {
		if got := conflict(parse(c.a), parse(c.b)); got != c.want {
			t.Errorf("conflict(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
