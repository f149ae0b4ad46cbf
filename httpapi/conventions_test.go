package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestJSONBodyRules(t *testing.T) {
	a := newAPI(t)
	tests := []struct {
		name, body string
		wantStatus int
		wantMsg    string
	}{
		{"unknown field", `{"email":"a@b.co","password":"x","admin":true}`, 400, `unknown field "admin"`},
		{"trailing garbage", `{"email":"a@b.co","password":"x"} {}`, 400, "single JSON object"},
		{"not json", `email=a`, 400, "not valid JSON"},
		{"empty", ``, 400, "empty"},
		{"wrong type", `{"email":5,"password":"x"}`, 400, "wrong type"},
		{"too large", `{"email":"` + strings.Repeat("a", 5000) + `","password":"x"}`, 413, "too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := a.do("POST", "/api/auth/login", "", tc.body)
			if r.Status != tc.wantStatus || r.Success || !strings.Contains(r.Error.Message, tc.wantMsg) {
				t.Fatalf("= %d %s, want %d containing %q", r.Status, r.Raw, tc.wantStatus, tc.wantMsg)
			}
		})
	}
}

func TestPublicSystemEndpoints(t *testing.T) {
	a := newAPI(t)
	h := a.do("GET", "/api/system/health", "", "")
	if h.Status != 200 || !h.Success || !strings.Contains(string(h.Data), `"status":"healthy"`) {
		t.Fatalf("health = %d %s", h.Status, h.Raw)
	}
	v := a.do("GET", "/api/system/version", "", "")
	for _, want := range []string{`"version":"test"`, `"commit":"abc"`, `"build_time":"now"`, `"go_version":"go"`} {
		if !strings.Contains(string(v.Data), want) {
			t.Errorf("version lacks %s: %s", want, v.Raw)
		}
	}
}

func TestUnknownAPIPathIs404Envelope(t *testing.T) {
	a := newAPI(t)
	r := a.do("GET", "/api/nope", "", "")
	if r.Status != 404 || r.Success || r.Error.Code != "not_found" {
		t.Fatalf("= %d %s", r.Status, r.Raw)
	}
}

// Well-known URIs are the discovery of clients (an MCP client's OAuth
// discovery first): a JSON 404 in the envelope, never the app's page.
func TestWellKnownIs404Envelope(t *testing.T) {
	a := newAPI(t)
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp",
		"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		r := a.do("GET", path, "", "")
		if r.Status != 404 || r.Success || r.Error.Code != "not_found" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("GET %s = %d %s %.80q", path, r.Status, r.Header.Get("Content-Type"), r.Raw)
		}
	}
}

// Every 401 carries a bearer challenge with the API's realm; one that
// answers a presented token says it was not accepted (RFC 6750 section 3).
func TestUnauthorizedCarriesABearerChallenge(t *testing.T) {
	a := newAPI(t)
	for _, c := range []struct{ name, method, path, token, body, want string }{
		{"no token", "GET", "/api/auth/me", "", "", `Bearer realm="kestrel"`},
		{"unknown token", "GET", "/api/auth/me", "nope", "", `Bearer realm="kestrel", error="invalid_token"`},
		{"wrong password", "POST", "/api/auth/login", "", `{"email":"a@b.co","password":"wrong-password-1"}`, `Bearer realm="kestrel"`},
	} {
		r := a.do(c.method, c.path, c.token, c.body)
		if r.Status != 401 || r.Header.Get("WWW-Authenticate") != c.want {
			t.Errorf("%s: %d WWW-Authenticate %q, want 401 %q", c.name, r.Status, r.Header.Get("WWW-Authenticate"), c.want)
		}
	}
}

func TestSecurityHeadersAndRequestID(t *testing.T) {
	a := newAPI(t)
	r := a.do("GET", "/api/system/health", "", "")
	for h, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
	} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP = %q", csp)
	}
	if len(r.Header.Get("X-Request-ID")) != 16 {
		t.Errorf("X-Request-ID = %q", r.Header.Get("X-Request-ID"))
	}
}

func TestSPAFallback(t *testing.T) {
	a := newAPI(t)
	for _, path := range []string{"/", "/trading/orders", "/no/such/page"} {
		r := a.do("GET", path, "", "")
		if r.Status != 200 || !strings.Contains(r.Raw, "<title>Kestrel</title>") || r.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s = %d %q", path, r.Status, r.Raw)
		}
	}
	if r := a.do("GET", "/assets/app-1234.js", "", ""); r.Status != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset = %d %v", r.Status, r.Header)
	}
	if r := a.do("GET", "/assets/missing.js", "", ""); r.Status != http.StatusNotFound {
		t.Errorf("missing asset = %d, want 404", r.Status)
	}
}

// A hashed asset goes out gzip-compressed from memory (compressed once),
// to a client that takes gzip only, with its type and length; HEAD sends
// no body.
func TestAssetsAreServedPrecompressed(t *testing.T) {
	a := newAPI(t)
	want := []byte(strings.Repeat("export const price = '64,123.45';\n", 300))
	get := func(method, accept string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, a.srv.URL+"/assets/big-5678.js", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept) // set by hand: the client then does not decompress
		}
		res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	var first []byte
	for i := range 2 {
		res, body := get("GET", "gzip, deflate, br")
		h := res.Header
		if res.StatusCode != 200 || h.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") ||
			h.Get("Vary") != "Accept-Encoding" || h.Get("Content-Length") != strconv.Itoa(len(body)) || !strings.Contains(h.Get("Cache-Control"), "immutable") {
			t.Fatalf("gzip GET %d: %d %v", i, res.StatusCode, h)
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(plain, want) || len(body) >= len(want)/4 {
			t.Fatalf("gzip GET %d: %d bytes unpacked to %d (err %v)", i, len(body), len(plain), err)
		}
		if i == 1 && !bytes.Equal(body, first) {
			t.Fatal("the second answer differs from the first")
		}
		first = body
	}
	for _, accept := range []string{"", "identity", "gzip;q=0"} {
		res, body := get("GET", accept)
		if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, want) {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes", accept, res.Header.Get("Content-Encoding"), len(body))
		}
	}
	res, body := get("HEAD", "gzip")
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(first)) {
		t.Errorf("HEAD: %d, %d bytes, length %s", res.StatusCode, len(body), res.Header.Get("Content-Length"))
	}
}

// The service worker is revalidated on every load (a fix reaches every
// browser at once) and the manifest has its registered type; the CSP lets
// both load from this origin and nowhere else.
func TestServiceWorkerAndManifest(t *testing.T) {
	a := newAPI(t)
	r := a.do("GET", "/sw.js", "", "")
	if r.Status != 200 || r.Header.Get("Cache-Control") != "no-cache" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("sw.js = %d %v", r.Status, r.Header)
	}
	r = a.do("GET", "/manifest.webmanifest", "", "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/manifest+json" || r.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("manifest = %d %v", r.Status, r.Header)
	}
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"worker-src 'self'", "manifest-src 'self'", "script-src 'self';", "connect-src 'self';"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
}

// Every /api route goes through Server.handle, which records it in the route
// table the OpenAPI and authorization tests are generated from; a direct
// mux registration would slip past both. (The "/api/" catch-all answers 404
// for unknown paths and is not a route.)
func TestAPIRoutesAreRegisteredThroughTheRouteTable(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name == "handle" {
				return false // the route table's own registration
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Handle" && sel.Sel.Name != "HandleFunc") {
				return true
			}
			if recv, ok := sel.X.(*ast.SelectorExpr); !ok || recv.Sel.Name != "mux" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				t.Errorf("%s: mux registration with a computed pattern; use s.api or s.handle", fset.Position(call.Pos()))
				return true
			}
			pattern, _ := strconv.Unquote(lit.Value)
			_, path, found := strings.Cut(pattern, " ")
			if !found {
				path = pattern
			}
			if strings.HasPrefix(path, "/api/") && pattern != "/api/" {
				t.Errorf("%s: %s is registered on the mux directly; use s.api (or s.handle) so it is in the route table", fset.Position(call.Pos()), pattern)
			}
			return true
		})
	}
}
