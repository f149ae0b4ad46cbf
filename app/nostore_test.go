package app_test

import (
	"net/http"
	"strings"
	"testing"
)

// Every API answer, success or error, signed in or not, tells caches to keep
// no copy (tokens, settings, balances); the web app's files stay cacheable.
// The CSP lets the page connect to its own origin only (the WebSocket too).
func TestAPIAnswersAreNotStored(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	for _, c := range []struct{ method, path, token, body string }{
		{"POST", "/api/auth/login", "", `{"email":"op@example.com","password":"operator-pass"}`},
		{"POST", "/api/auth/login", "", `{"email":"op@example.com","password":"wrong-pass-1"}`},
		{"GET", "/api/auth/me", op, ""},
		{"GET", "/api/settings", op, ""},
		{"GET", "/api/settings/export", op, ""},
		{"GET", "/api/auth/me", "", ""},
		{"GET", "/api/no-such-route", op, ""},
		{"GET", "/api/system/health", "", ""},
		{"POST", "/api/ws/ticket", op, ""},
		{"GET", "/metrics", "", ""},
	} {
		req, _ := http.NewRequest(c.method, s.url+c.path, strings.NewReader(c.body))
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s %s (%d): Cache-Control %q, want no-store", c.method, c.path, res.StatusCode, got)
		}
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "connect-src 'self';") || strings.Contains(csp, "ws:") {
			t.Errorf("%s %s: CSP %q, want connect-src 'self' only", c.method, c.path, csp)
		}
	}
	res, err := http.Get(s.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Cache-Control"); got == "no-store" {
		t.Errorf("the web app's page is no-store; only API answers need it")
	}
}
