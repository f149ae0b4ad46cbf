package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func natsConn(t *testing.T) *nats.Conn {
	t.Helper()
	url := os.Getenv("KESTREL_TEST_NATS_URL")
	if url == "" {
		url = nats.DefaultURL
	}
	nc, err := nats.Connect(url, nats.Timeout(2*time.Second))
	if err != nil {
		if os.Getenv("KESTREL_REQUIRE_NATS") == "1" {
			t.Fatalf("NATS required but not reachable at %s: %v", url, err)
		}
		fmt.Printf("SKIP: NATS unreachable at %s: %v\n", url, err)
		t.Skipf("NATS unreachable at %s: %v", url, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func TestLeaderOnly(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         bool
	}{
		{"POST", "/api/trading/execute", true},
		{"DELETE", "/api/trading/orders/abc", true},
		{"PUT", "/api/trading/orders/abc", true},
		{"POST", "/api/trading/stop", true},
		{"GET", "/api/trading/orders", false},
		{"PUT", "/api/settings", true},
		{"POST", "/api/strategy/technical_strategy/start", true},
		{"POST", "/api/system/alerts/7/resolve", true},
		{"POST", "/api/system/restart", true},
		{"POST", "/api/auth/login", false},
		{"POST", "/api/backtests", false},
		{"GET", "/api/system/status", false},
	} {
		if got := LeaderOnly(httptest.NewRequest(c.method, c.path, nil)); got != c.want {
			t.Errorf("%s %s: leader only = %v, want %v", c.method, c.path, got, c.want)
		}
	}
}

// TestForwardToLeader: a follower's trading command runs on the leader with
// its headers and body, and the answer comes back unchanged; with no leader
// the follower answers 503 in the API's envelope.
func TestForwardToLeader(t *testing.T) {
	ncLeader, ncFollower := natsConn(t), natsConn(t)
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	var leading atomic.Bool
	leader := NewForwarder(ncLeader, cluster, "leader", leading.Load, 2*time.Second)
	follower := NewForwarder(ncFollower, cluster, "follower", func() bool { return false }, 2*time.Second)
	follower.Leader = func() (string, int64) { return "leader", 1 }

	var ran atomic.Int32
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"success":true,"data":{"auth":%q,"body":%s,"path":%q}}`, r.Header.Get("Authorization"), body, r.URL.RequestURI())
	})
	send := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/api/trading/execute?x=1", strings.NewReader(`{"symbol":"BTC-USD"}`))
		req.Header.Set("Authorization", "Bearer tok")
		rec := httptest.NewRecorder()
		follower.Middleware(api).ServeHTTP(rec, req)
		return rec
	}

	// No leader yet: 503 with the envelope, at once (no responders).
	rec := send()
	var env struct {
		Success bool `json:"success"`
		Error   struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if rec.Code != http.StatusServiceUnavailable || json.Unmarshal(rec.Body.Bytes(), &env) != nil || env.Success || env.Error.Code != "unavailable" {
		t.Fatalf("without a leader: %d %s, want 503 with code unavailable", rec.Code, rec.Body)
	}

	leading.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- leader.Serve(ctx, leader.Middleware(api), 1) }()
	defer func() { cancel(); <-served }()
	deadline := time.Now().Add(5 * time.Second)
	for rec = send(); rec.Code == http.StatusServiceUnavailable && time.Now().Before(deadline); rec = send() {
		time.Sleep(20 * time.Millisecond) // until the leader's subscription is in place
	}
	want := `{"success":true,"data":{"auth":"Bearer tok","body":{"symbol":"BTC-USD"},"path":"/api/trading/execute?x=1"}}`
	if rec.Code != http.StatusCreated || rec.Body.String() != want || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("forwarded: %d %s, want 201 %s", rec.Code, rec.Body, want)
	}
	if ran.Load() != 1 {
		t.Fatalf("the command ran %d times, want once (on the leader only)", ran.Load())
	}

	// A leader that stepped down refuses a forwarded command rather than
	// forwarding it again.
	leading.Store(false)
	if rec = send(); rec.Code != http.StatusServiceUnavailable || ran.Load() != 1 {
		t.Fatalf("after step-down: %d, ran %d; want 503 and no second run", rec.Code, ran.Load())
	}
}

// TestForwardGivesUpWhenTheLeaderChanges: a command sent to a leader that
// dies with it in flight gets its 503 as soon as the heartbeats name the
// new leader, not at the timeout.
func TestForwardGivesUpWhenTheLeaderChanges(t *testing.T) {
	ncDead, ncFollower := natsConn(t), natsConn(t)
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	// The dying leader's subscription: it receives the command and never answers.
	sub, err := ncDead.Subscribe(cluster+".command.1", func(*nats.Msg) {})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := ncDead.Flush(); err != nil {
		t.Fatal(err)
	}
	follower := NewForwarder(ncFollower, cluster, "follower", func() bool { return false }, time.Minute)
	var term atomic.Int64
	term.Store(1)
	follower.Leader = func() (string, int64) { return "leader", term.Load() }
	time.AfterFunc(200*time.Millisecond, func() { term.Store(2) })

	began := time.Now()
	rec := httptest.NewRecorder()
	follower.Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("POST", "/api/trading/execute", strings.NewReader(`{}`)))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "changed") {
		t.Fatalf("got %d %s, want 503 saying the leader changed", rec.Code, rec.Body)
	}
	if waited := time.Since(began); waited > 30*time.Second {
		t.Fatalf("waited %s: the wait did not end when the leader changed", waited)
	}
}

// serveLeader runs api behind a leading forwarder of the named cluster and
// returns a follower's middleware in front of it, once the leader answers.
func serveLeader(t *testing.T, cluster string, api http.Handler) http.Handler {
	t.Helper()
	leader := NewForwarder(natsConn(t), cluster, "leader", func() bool { return true }, 5*time.Second)
	follower := NewForwarder(natsConn(t), cluster, "follower", func() bool { return false }, 5*time.Second)
	follower.Leader = func() (string, int64) { return "leader", 1 }
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- leader.Serve(ctx, leader.Middleware(api), 1) }()
	t.Cleanup(func() { cancel(); <-served })
	front := follower.Middleware(http.NotFoundHandler())
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rec := httptest.NewRecorder()
		front.ServeHTTP(rec, httptest.NewRequest("POST", "/api/trading/stop", nil))
		if rec.Code != http.StatusServiceUnavailable {
			return front
		}
	}
	t.Fatal("the leader never answered")
	return nil
}

// TestForwardCarriesTheRequestAsItIs: method, path and query, repeated
// headers, a body that is not text and the remote address reach the
// leader's handler unchanged, and its status, repeated headers and body
// come back; a client's header that poses as a forwarding field is dropped.
func TestForwardCarriesTheRequestAsItIs(t *testing.T) {
	body := []byte{0, 1, 2, '\r', '\n', 0xff, '{', '}'}
	var got *http.Request
	var gotBody []byte
	front := serveLeader(t, fmt.Sprintf("fwdtest%d", time.Now().UnixNano()), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/trading/stop" {
			return // the readiness probe
		}
		got = r
		gotBody, _ = io.ReadAll(r.Body)
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write([]byte("conflict body"))
	}))

	req := httptest.NewRequest("PUT", "/api/trading/orders/o-1?price=1&price=2", bytes.NewReader(body))
	req.Header.Add("X-Trace", "one")
	req.Header.Add("X-Trace", "two")
	req.Header.Set("Kestrel-Fwd-Method", "DELETE")
	req.Header.Set("Kestrel-Fwd-Remote-Addr", "10.9.9.9:1")
	req.RemoteAddr = "192.0.2.7:4321"
	rec := httptest.NewRecorder()
	front.ServeHTTP(rec, req)

	if got == nil {
		t.Fatalf("the leader's handler never ran: %d %s", rec.Code, rec.Body)
	}
	if got.Method != "PUT" || got.URL.RequestURI() != "/api/trading/orders/o-1?price=1&price=2" || got.RemoteAddr != "192.0.2.7:4321" {
		t.Errorf("leader saw %s %s from %s, want PUT /api/trading/orders/o-1?price=1&price=2 from 192.0.2.7:4321", got.Method, got.URL.RequestURI(), got.RemoteAddr)
	}
	if !bytes.Equal(gotBody, body) {
		t.Errorf("leader read body %q, want %q", gotBody, body)
	}
	if tr := got.Header.Values("X-Trace"); len(tr) != 2 || tr[0] != "one" || tr[1] != "two" {
		t.Errorf("X-Trace = %q, want [one two]", tr)
	}
	if got.Header.Get(forwardedHeader) != "follower" {
		t.Errorf("%s = %q, want follower", forwardedHeader, got.Header.Get(forwardedHeader))
	}
	for k := range got.Header {
		if strings.HasPrefix(k, reservedPrefix) {
			t.Errorf("the leader's handler saw the forwarding field %s", k)
		}
	}
	if rec.Code != http.StatusConflict || rec.Body.String() != "conflict body" {
		t.Errorf("answer %d %q, want 409 %q", rec.Code, rec.Body, "conflict body")
	}
	if c := rec.Header().Values("Set-Cookie"); len(c) != 2 || c[0] != "a=1" || c[1] != "b=2" {
		t.Errorf("Set-Cookie = %q, want [a=1 b=2]", c)
	}
	for k := range rec.Header() {
		if strings.HasPrefix(k, reservedPrefix) {
			t.Errorf("the client saw the forwarding field %s", k)
		}
	}
}

// TestForwardedCommandsRunConcurrently: commands forwarded together run at
// the same time on the leader, as HTTP requests do, not one after another.
func TestForwardedCommandsRunConcurrently(t *testing.T) {
	const n = 20
	var arrived atomic.Int32
	all := make(chan struct{})
	front := serveLeader(t, fmt.Sprintf("fwdtest%d", time.Now().UnixNano()), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/trading/stop" {
			return
		}
		if arrived.Add(1) == n {
			close(all)
		}
		select { // each waits for all the others: serial handling would time out
		case <-all:
		case <-time.After(4 * time.Second):
			w.WriteHeader(http.StatusGatewayTimeout)
		}
	}))
	codes := make(chan int, n)
	for range n {
		go func() {
			rec := httptest.NewRecorder()
			front.ServeHTTP(rec, httptest.NewRequest("POST", "/api/trading/execute", strings.NewReader(`{}`)))
			codes <- rec.Code
		}()
	}
	for range n {
		if c := <-codes; c != http.StatusOK {
			t.Fatalf("a command answered %d (arrived together: %d of %d), want 200", c, arrived.Load(), n)
		}
	}
}
