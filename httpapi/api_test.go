package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/httpapi/openapi/openapitest"
	"kestrel/store/sqlite"
)

type testAPI struct {
	t     *testing.T
	srv   *httptest.Server
	store domain.Store
	auth  *auth.Service
}

var ui = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><title>Kestrel</title>")},
	"assets/app-1234.js":   {Data: []byte("console.log(1)")},
	"assets/big-5678.js":   {Data: []byte(strings.Repeat("export const price = '64,123.45';\n", 300))},
	"sw.js":                {Data: []byte("self.addEventListener('push', () => {})")},
	"manifest.webmanifest": {Data: []byte(`{"name":"Kestrel"}`)},
}

func newAPI(t *testing.T) *testAPI {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	clock := domain.SystemClock{}
	a := auth.NewService(store, clock, time.Hour)
	s := httpapi.New(httpapi.Deps{Store: store, Auth: a, Clock: clock, Started: clock.Now(), UI: ui,
		Build: httpapi.BuildInfo{Version: "test", Commit: "abc", BuildTime: "now", GoVersion: "go"}, MaxBodyBytes: 4096})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); store.Close() })
	return &testAPI{t: t, srv: srv, store: store, auth: a}
}

type response struct {
	Status  int
	Header  http.Header
	Raw     string
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func (a *testAPI) do(method, path, token, body string) response {
	a.t.Helper()
	req, _ := http.NewRequest(method, a.srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	openapitest.Check(a.t, req, res.StatusCode, res.Header, raw)
	r := response{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r); err != nil {
			a.t.Fatalf("%s %s: bad JSON %q: %v", method, path, raw, err)
		}
	}
	return r
}

// register creates an account and returns its token.
func (a *testAPI) register(email, name, password string) (string, domain.User) {
	a.t.Helper()
	r := a.do("POST", "/api/auth/register", "", `{"email":"`+email+`","name":"`+name+`","password":"`+password+`"}`)
	if r.Status != http.StatusCreated {
		a.t.Fatalf("register %s: %d %s", email, r.Status, r.Raw)
	}
	var out struct {
		Token string      `json:"token"`
		User  domain.User `json:"user"`
	}
	json.Unmarshal(r.Data, &out)
	return out.Token, out.User
}

func (a *testAPI) login(email, password string) string {
	a.t.Helper()
	r := a.do("POST", "/api/auth/login", "", `{"email":"`+email+`","password":"`+password+`"}`)
	if r.Status != 200 {
		a.t.Fatalf("login %s: %d %s", email, r.Status, r.Raw)
	}
	var out struct{ Token string }
	json.Unmarshal(r.Data, &out)
	return out.Token
}
