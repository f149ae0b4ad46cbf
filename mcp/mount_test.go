package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kestrel/alert"
	"kestrel/auth"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/store/sqlite"
)

// testAPI is the whole API (package httpapi) with the MCP server mounted
// at /mcp, as the application serves it, over a fresh SQLite store.
type testAPI struct {
	t   *testing.T
	srv *httptest.Server
}

// newMCPAPI is the API with the HTTP tuning and more dependencies set.
func newMCPAPI(t *testing.T, tuning func() httpapi.Tuning, more func(*httpapi.Deps)) *testAPI {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	clock := domain.SystemClock{}
	a := auth.NewService(store, clock, time.Hour)
	d := httpapi.Deps{Store: store, Auth: a, Clock: clock, Started: clock.Now(),
		Build: httpapi.BuildInfo{Version: "test"}, MaxBodyBytes: 1 << 16, Tuning: tuning}
	if more != nil {
		more(&d)
	}
	srv := httptest.NewServer(httpapi.New(d).Handler())
	t.Cleanup(func() { srv.Close(); store.Close() })
	return &testAPI{t: t, srv: srv}
}

// signIn posts credentials to path (register or login) and returns the
// session token.
func (a *testAPI) signIn(path, body string, want int) string {
	a.t.Helper()
	res, err := http.Post(a.srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out struct {
		Data struct{ Token string }
	}
	if res.StatusCode != want || json.Unmarshal(raw, &out) != nil || out.Data.Token == "" {
		a.t.Fatalf("%s: %d %s", path, res.StatusCode, raw)
	}
	return out.Data.Token
}

func (a *testAPI) register(email, name, password string) string {
	return a.signIn("/api/auth/register", `{"email":"`+email+`","name":"`+name+`","password":"`+password+`"}`, http.StatusCreated)
}

func (a *testAPI) login(email, password string) string {
	return a.signIn("/api/auth/login", `{"email":"`+email+`","password":"`+password+`"}`, http.StatusOK)
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (a *testAPI) mcpClient(token string) *mcp.ClientSession {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: a.srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{token}}, MaxRetries: -1}, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() { cs.Close() })
	return cs
}

// A REST call and an MCP tool call wait for the same slot: with the only
// slot held by a REST call, a tool call is refused as busy when its request
// time is up (before, each tool call built its own handler chain with an
// empty pool and answered at once); once the slot is free it is answered.
func TestMCPToolCallsShareTheRESTSlots(t *testing.T) {
	release := make(chan struct{})
	var holding atomic.Bool
	held := make(chan struct{}, 1)
	// The short request time applies once the slot is held (a sign-up
	// hashes a password for longer than that on a busy machine).
	tuning := func() httpapi.Tuning {
		if holding.Load() {
			return httpapi.Tuning{MaxConcurrent: 1, RequestTimeout: 300 * time.Millisecond}
		}
		return httpapi.Tuning{MaxConcurrent: 1, RequestTimeout: time.Minute}
	}
	a := newMCPAPI(t, tuning, func(d *httpapi.Deps) {
		d.Alerts = alert.New(d.Store.(domain.AlertStore), nil, d.Clock) // the system routes
		d.Logs = func(context.Context, string, string, int) ([]domain.LogEntry, error) {
			if holding.Load() {
				held <- struct{}{}
				<-release // holds the slot whatever the request's deadline
			}
			return []domain.LogEntry{}, nil
		}
	})
	op := a.register("op@example.com", "Op", "correct-horse-battery")
	cs := a.mcpClient(op)
	ctx := context.Background()
	var once sync.Once
	free := func() { holding.Store(false); once.Do(func() { close(release) }) }
	defer free()

	holding.Store(true)
	restDone := make(chan struct{})
	go func() {
		defer close(restDone)
		req, _ := http.NewRequest("GET", a.srv.URL+"/api/system/logs", nil)
		req.Header.Set("Authorization", "Bearer "+op)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		res.Body.Close()
		if res.StatusCode != 503 && res.StatusCode != 200 {
			t.Errorf("the REST call holding the slot: %d", res.StatusCode)
		}
	}()
	select { // the REST call holds the only slot
	case <-held:
	case <-restDone:
		t.Fatal("the REST call did not take the slot")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "getAuthMe"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, `"unavailable"`) || !strings.Contains(text, "busy") {
		t.Fatalf("tool call while a REST call holds the only slot: error %v, %s", res.IsError, text)
	}
	free()
	<-restDone
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "getAuthMe"})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "op@example.com") {
		t.Fatalf("tool call with the slot free: %v %+v", err, res)
	}
}

// mcpInitialize starts an MCP session with a raw initialize request: its
// status and session id.
func (a *testAPI) mcpInitialize(token string) (int, string, string) {
	a.t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", a.srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Mcp-Session-Id"), string(raw)
}

// 2,000 sessions from one credential: the first 16 open, every other is
// refused with a 429 envelope naming the cap; ending one makes room for one
// more; five credentials of one address reach the address's cap of 64.
func TestMCPSessionsAreCapped(t *testing.T) {
	a := newMCPAPI(t, func() httpapi.Tuning { return httpapi.Tuning{} }, nil)
	op := a.register("op@example.com", "Op", "correct-horse-battery")
	var opened []string
	refused := 0
	for range 2000 {
		code, id, raw := a.mcpInitialize(op)
		switch {
		case code == 200 && id != "":
			opened = append(opened, id)
		case code == http.StatusTooManyRequests:
			var env struct {
				Error struct{ Code, Message string }
			}
			if json.Unmarshal([]byte(raw), &env) != nil || env.Error.Code != "rate_limited" || !strings.Contains(env.Error.Message, "16 MCP sessions") {
				t.Fatalf("refusal %s", raw)
			}
			refused++
		default:
			t.Fatalf("initialize: %d %s", code, raw)
		}
	}
	if len(opened) != 16 || refused != 2000-16 {
		t.Fatalf("%d sessions opened, %d refused: want 16, %d", len(opened), refused, 2000-16)
	}

	req, _ := http.NewRequest("DELETE", a.srv.URL+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+op)
	req.Header.Set("Mcp-Session-Id", opened[0])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var code int
	for range 100 { // the session's end is counted when its connection closes, just after the answer
		if code, _, _ = a.mcpInitialize(op); code == 200 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code != 200 {
		t.Fatalf("after ending one session: %d", code)
	}

	// Four more sign-ins of the same person from the same address: 16 + 16
	// + 16 + 16 = 64 and the fifth credential is refused by the address cap.
	total := 16
	for i := range 4 {
		tok := a.login("op@example.com", "correct-horse-battery")
		for j := range 17 {
			code, _, raw := a.mcpInitialize(tok)
			if total < 64 && j < 16 {
				if code != 200 {
					t.Fatalf("credential %d session %d (%d live): %d %s", i+2, j+1, total, code, raw)
				}
				total++
				continue
			}
			if code != http.StatusTooManyRequests {
				t.Fatalf("credential %d session %d (%d live): %d, want 429", i+2, j+1, total, code)
			}
			if total == 64 && !strings.Contains(raw, "This address already has 64") && j < 16 {
				t.Fatalf("address cap refusal: %s", raw)
			}
		}
	}
}
