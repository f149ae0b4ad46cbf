package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kestrel/ai/spend"
	"kestrel/alert"
	"kestrel/auth"
	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/httpapi/openapi"
	"kestrel/httpapi/routemux"
	"kestrel/httpapi/ws"
	"kestrel/jobs"
	"kestrel/marketdata"
	"kestrel/notify"
	"kestrel/promotion"
	"kestrel/settings"
	"kestrel/store/sqlite"
	"kestrel/strategy"
	"kestrel/trading"
)

var updateOpenAPI = flag.Bool("update", false, "write the route table's x-access and x-token-use into openapi/openapi.json")

// allRoutes is the route table of a server with every optional part
// present. Registering calls nothing on the parts, so empty ones do.
func allRoutes() []Route {
	type market struct{ domain.MarketData }
	type digest struct{ notify.DigestAccount }
	type portfolio struct{ domain.PortfolioStore }
	return New(Deps{Auth: &auth.Service{}, Market: market{}, OrderBook: func(string) OrderBook { return OrderBook{} },
		History: &marketdata.History{}, Backfills: &marketdata.Backfiller{}, Hub: &ws.Hub{}, Trading: &trading.Service{},
		Strategies: &strategy.Engine{}, Promotions: &promotion.Service{}, Spend: &spend.Book{}, Backtests: &backtest.Service{},
		Jobs: &jobs.Runner{}, Notify: &notify.Service{}, Digest: digest{}, Portfolio: portfolio{}, Alerts: &alert.Service{},
		Settings: &settings.Service{}, ExchangeTest: func(context.Context, settings.Exchange) (string, error) { return "", nil },
		Logs:    func(context.Context, string, string, int) ([]domain.LogEntry, error) { return nil, nil },
		Restart: func(context.Context, string) error { return nil }}).Routes()
}

// A route opens to API tokens only where its registration says so: a new
// GET under /api/trading/ (a prefix every token could once read) refuses
// even a trade-scope token until it declares a token use.
func TestNewRouteRefusesTokensUntilItSaysSo(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	clock := domain.SystemClock{}
	a := auth.NewService(store, clock, time.Hour)
	const password = "correct horse 42"
	u, err := a.Register(ctx, auth.NewUser{Email: "t@example.com", Name: "T", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(time.Hour)
	token, _, err := a.CreateToken(ctx, u, u, auth.NewToken{Name: "bot", Scope: domain.ScopeTrade, ExpiresAt: &expires, Password: password}, "")
	if err != nil {
		t.Fatal(err)
	}
	session, err := a.OpenSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}

	s := &Server{d: Deps{Store: store, Auth: a, Clock: clock}, mux: http.NewServeMux()}
	ok := func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }
	s.api("GET /api/trading/hypothetical", signedIn, ok)
	s.api("GET /api/trading/declared", signedIn.withToken(tokenRead), ok)
	routemux.Mount(s.mux, s.mounts, http.HandlerFunc(s.noSuchEndpoint))

	call := func(path, bearer string) (int, string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+bearer)
		s.mux.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	if code, body := call("/api/trading/hypothetical", token); code != http.StatusForbidden || !strings.Contains(body, "API tokens cannot call this endpoint") {
		t.Errorf("a token on a route without a token use: %d %s, want 403", code, body)
	}
	if code, body := call("/api/trading/hypothetical", session); code != http.StatusOK {
		t.Errorf("a session on it: %d %s, want 200", code, body)
	}
	if code, body := call("/api/trading/declared", token); code != http.StatusOK {
		t.Errorf("a token on a route that admits it: %d %s, want 200", code, body)
	}
	if got := s.Routes(); got[0].Token != "" || got[1].Token != "read" {
		t.Errorf("route table: %+v", got)
	}
}

func TestPublicRouteTakesNoTokenUse(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a public route registered with a token use: no panic")
		}
	}()
	s := &Server{mux: http.NewServeMux()}
	s.api("GET /api/hypothetical", public.withToken(tokenRead), func(http.ResponseWriter, *http.Request) {})
}

// The OpenAPI description states each route's access as the route table
// does: x-access its role, x-token-use what an API token may do (absent:
// sessions only). The table is the source; -update writes it into the file.
func TestOpenAPIAccessIsTheRouteTable(t *testing.T) {
	routes := allRoutes()
	if *updateOpenAPI {
		path := filepath.Join("openapi", "openapi.json")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := writeAccess(raw, routes)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Access   string `json:"x-access"`
			TokenUse string `json:"x-token-use"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	described := map[string]Route{}
	for path, item := range doc.Paths {
		for method, op := range item {
			m := strings.ToUpper(method)
			described[m+" "+path] = Route{Method: m, Path: path, Access: op.Access, Token: op.TokenUse}
		}
	}
	for _, r := range routes {
		key := r.Method + " " + r.Path
		d, ok := described[key]
		switch {
		case !ok:
			t.Errorf("%s is registered but not described in httpapi/openapi/openapi.json", key)
		case d.Access != r.Access || d.Token != r.Token:
			t.Errorf("%s: the route table says access %q, token use %q; the description x-access %q, x-token-use %q (go test ./httpapi -run TestOpenAPIAccess -update)",
				key, r.Access, r.Token, d.Access, d.Token)
		}
		delete(described, key)
	}
	for key := range described {
		t.Errorf("%s is described in httpapi/openapi/openapi.json but no such route is registered", key)
	}
}

var (
	pathLine   = regexp.MustCompile(`^    "(/[^"]*)": \{$`)
	methodLine = regexp.MustCompile(`^      "(get|put|post|patch|delete)": \{$`)
	accessLine = regexp.MustCompile(`^        "x-access": "[^"]*",$`)
	tokenLine  = regexp.MustCompile(`^        "x-token-use": "[^"]*",$`)
)

// writeAccess sets each operation's x-access and x-token-use lines in the
// description's text to the route table's, leaving every other byte as it
// is (the file is kept by hand, and the web app's types are generated
// from it).
func writeAccess(raw []byte, routes []Route) ([]byte, error) {
	table := map[string]Route{}
	for _, r := range routes {
		table[r.Method+" "+r.Path] = r
	}
	var out bytes.Buffer
	var path, method string
	seen := map[string]bool{}
	for _, line := range strings.SplitAfter(string(raw), "\n") {
		body := strings.TrimSuffix(line, "\n")
		switch {
		case pathLine.MatchString(body):
			path = pathLine.FindStringSubmatch(body)[1]
		case methodLine.MatchString(body):
			method = strings.ToUpper(methodLine.FindStringSubmatch(body)[1])
		case tokenLine.MatchString(body):
			continue // written after x-access
		case accessLine.MatchString(body):
			key := method + " " + path
			r, ok := table[key]
			if !ok {
				return nil, &accessError{key, "described but not registered"}
			}
			seen[key] = true
			out.WriteString(`        "x-access": "` + r.Access + "\",\n")
			if r.Token != "" {
				out.WriteString(`        "x-token-use": "` + r.Token + "\",\n")
			}
			continue
		}
		out.WriteString(line)
	}
	for key := range table {
		if !seen[key] {
			return nil, &accessError{key, "registered but described without x-access"}
		}
	}
	return out.Bytes(), nil
}

type accessError struct{ route, why string }

func (e *accessError) Error() string { return e.route + ": " + e.why }
