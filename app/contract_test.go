package app_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"kestrel/auth"
	"kestrel/httpapi"
	"kestrel/httpapi/openapi/openapitest"
)

// The OpenAPI description and the router agree: every registered /api route
// is described with the same access level, and nothing else is described.
func TestRouteTableMatchesOpenAPI(t *testing.T) {
	s := start(t, t.TempDir())
	doc, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	described := map[string]string{}
	security := map[string][]string{}
	for _, op := range doc.Operations() {
		described[op.Method+" "+op.Path] = op.Access
		security[op.Method+" "+op.Path] = op.Security
	}
	routes := s.app.API.Routes()
	if len(routes) < 50 {
		t.Fatalf("only %d routes registered: is the whole app running?", len(routes))
	}
	for _, r := range routes {
		key := r.Method + " " + r.Path
		acc, ok := described[key]
		switch {
		case !ok:
			t.Errorf("%s is registered but missing from httpapi/openapi/openapi.json", key)
		case acc != r.Access:
			t.Errorf("%s: the router says access %q, the description x-access %q", key, r.Access, acc)
		}
		// The security the description names is the credential the route
		// takes: none on a public route, the bearer token elsewhere, and
		// the realtime ticket beside it where the route takes one.
		want := []string{"bearer"}
		switch {
		case r.Access == "public":
			want = nil
		case r.TicketInQuery:
			want = []string{"bearer", "wsTicket"}
		}
		if got := security[key]; ok && !slices.Equal(got, want) {
			t.Errorf("%s: described security %v, want %v", key, got, want)
		}
		delete(described, key)
	}
	for key := range described {
		t.Errorf("%s is described in httpapi/openapi/openapi.json but no such route is registered", key)
	}
	// The served copy is the embedded one.
	res, err := http.Get(s.url + "/api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), `"openapi": "3.1.0"`) {
		t.Fatalf("GET /api/openapi.json: %d %.100s", res.StatusCode, body)
	}
}

// matrix is the authorization test's world: a running app and ways to mint
// tokens of each kind without a password round trip.
type matrix struct {
	s                     *server
	opID, traderID, offID string
}

func (m *matrix) token(userID string) string {
	m.s.t.Helper()
	tok, err := m.s.app.Auth.OpenSession(context.Background(), userID)
	if err != nil {
		m.s.t.Fatal(err)
	}
	return tok
}

// expired is a trader's token whose session has run out (the store's own
// expiry, as an idle hour would leave it).
func (m *matrix) expired() string {
	tok := m.token(m.traderID)
	if err := m.s.app.Store.ExtendSession(context.Background(), auth.SessionID(tok), time.Now().Add(-time.Minute)); err != nil {
		m.s.t.Fatal(err)
	}
	return tok
}

// samplePath fills a route's path parameters with values that exist where
// that is easy (a symbol, a strategy) and with unknown ids elsewhere.
func samplePath(path string) string {
	return regexp.MustCompile(`\{(\w+)\}`).ReplaceAllStringFunc(path, func(p string) string {
		switch p {
		case "{symbol}":
			return "BTC-USD"
		case "{name}":
			return "technical_strategy"
		default:
			return "no-such-id"
		}
	})
}

// call sends one request; the token goes in the header (the WebSocket
// takes it there too, from programs; browsers use a ticket).
func (m *matrix) call(r httpapi.Route, token string, body bool) (int, string) {
	m.s.t.Helper()
	u := m.s.url + samplePath(r.Path)
	var rd io.Reader
	if body {
		rd = strings.NewReader("{}")
	}
	req, _ := http.NewRequest(r.Method, u, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		m.s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		openapitest.Check(m.s.t, req, res.StatusCode, res.Header, raw)
	}
	// Every 401 says how to authenticate (RFC 9110 section 15.5.2).
	if c := res.Header.Get("WWW-Authenticate"); res.StatusCode == http.StatusUnauthorized && !strings.HasPrefix(c, `Bearer realm="kestrel"`) {
		m.s.t.Errorf("%s %s: 401 with WWW-Authenticate %q, want a Bearer challenge with realm kestrel", r.Method, r.Path, c)
	}
	return res.StatusCode, fmt.Sprintf("%.300s", raw)
}

// TestAuthorizationMatrix is generated from the route table: every /api
// route without a token, with an expired token, with a disabled user's
// token, with a trader's token where an operator is required, and with the
// right role. Adding a route needs no change here; adding one without an
// access level fails.
func TestAuthorizationMatrix(t *testing.T) {
	s := start(t, t.TempDir())
	s.accounts()
	ctx := context.Background()
	id := func(email string) string {
		u, _, err := s.app.Store.UserByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	op := s.login("op@example.com", "operator-pass")
	if r := s.do("POST", "/api/users", op, `{"email":"off@example.com","name":"Off","password":"disabled-pass","role":"operator"}`); !r.Success {
		t.Fatalf("create user: %+v", r)
	}
	m := &matrix{s: s, opID: id("op@example.com"), traderID: id("t@example.com"), offID: id("off@example.com")}
	// Disabled in the store directly, so the sessions opened for it below
	// survive and the check under test is the one on every request.
	if err := s.app.Store.SetUserDisabled(ctx, m.offID, true); err != nil {
		t.Fatal(err)
	}

	doc, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	hasBody := map[string]bool{}
	for path, item := range doc.T.Paths.Map() {
		for method, o := range item.Operations() {
			hasBody[method+" "+path] = o.RequestBody != nil
		}
	}

	counts := map[string]int{}
	for _, r := range s.app.API.Routes() {
		key := r.Method + " " + r.Path
		body := hasBody[key]
		expect := func(kind string, token string, ok func(int) bool, want string) {
			t.Helper()
			st, raw := m.call(r, token, body)
			counts[kind]++
			if !ok(st) {
				t.Errorf("%s %s: got %d, want %s: %s", kind, key, st, want, raw)
			}
		}
		is := func(code int) func(int) bool { return func(st int) bool { return st == code } }
		allowed := func(st int) bool { return st < 500 && st != 401 && st != 403 }
		switch r.Access {
		case "public":
			expect("public", "", allowed, "2xx or 4xx other than 401/403")
			continue
		case "signed-in", "operator":
		default:
			t.Errorf("%s has no access level: register it with public, signedIn or operatorOnly", key)
			continue
		}
		expect("no token", "", is(401), "401")
		expect("expired token", m.expired(), is(401), "401")
		expect("disabled user", m.token(m.offID), is(401), "401")
		if r.Access == "operator" {
			expect("trader on operator route", m.token(m.traderID), is(403), "403")
			expect("operator", m.token(m.opID), allowed, "2xx or 4xx other than 401/403")
		} else {
			expect("trader", m.token(m.traderID), allowed, "2xx or 4xx other than 401/403")
			expect("operator", m.token(m.opID), allowed, "2xx or 4xx other than 401/403")
		}
	}
	t.Logf("authorization matrix: %v", counts)
}
