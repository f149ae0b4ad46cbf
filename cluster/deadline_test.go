package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// send posts a command through the follower's middleware.
func send(front http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	front.ServeHTTP(rec, httptest.NewRequest("POST", "/api/trading/execute", strings.NewReader(body)))
	return rec
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("answer %d %q is not the envelope: %v", rec.Code, rec.Body, err)
	}
	return env.Error.Code
}

// TestFrozenLeaderNeverRunsExpiredCommands: commands reach a leader that is
// paused (they wait in its buffers, as with SIGSTOP); the follower answers
// each 503 at its deadline. When the leader wakes and reads them, it runs
// none: a 503 meant "not run".
func TestFrozenLeaderNeverRunsExpiredCommands(t *testing.T) {
	ncFrozen, ncLeader, ncFollower := natsConn(t), natsConn(t), natsConn(t)
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	buffered := make(chan *nats.Msg, 16)
	sub, err := ncFrozen.Subscribe(cluster+".command.1", func(m *nats.Msg) { buffered <- m })
	if err != nil {
		t.Fatal(err)
	}
	if err := ncFrozen.Flush(); err != nil {
		t.Fatal(err)
	}
	follower := NewForwarder(ncFollower, cluster, "follower", func() bool { return false }, 300*time.Millisecond)
	follower.Leader = func() (string, int64) { return "leader", 1 }

	const n = 5
	var wg sync.WaitGroup
	codes := make(chan *httptest.ResponseRecorder, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- send(follower.Middleware(http.NotFoundHandler()), fmt.Sprintf(`{"n":%d}`, i))
		}()
	}
	wg.Wait()
	close(codes)
	for rec := range codes {
		if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "unavailable" || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("a command to the paused leader: %d %s, want 503 unavailable with Retry-After", rec.Code, rec.Body)
		}
	}
	sub.Unsubscribe()
	if len(buffered) != n {
		t.Fatalf("the paused leader holds %d commands, want %d", len(buffered), n)
	}

	// The leader wakes: the same messages reach its forwarder now.
	var ran atomic.Int32
	leader := NewForwarder(ncLeader, cluster, "leader", func() bool { return true }, 300*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- leader.Serve(ctx, leader.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ran.Add(1) })), 1)
	}()
	defer func() { cancel(); <-served }()
	waitSubscribed(t, ncLeader, cluster+".command.1")
	answers := make(chan *nats.Msg, 2*n)
	for range n {
		m := <-buffered
		if _, err := ncFrozen.Subscribe(m.Reply, func(a *nats.Msg) { answers <- a }); err != nil {
			t.Fatal(err)
		}
		if err := ncFrozen.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := ncFrozen.PublishMsg(&nats.Msg{Subject: m.Subject, Reply: m.Reply, Header: m.Header, Data: m.Data}); err != nil {
			t.Fatal(err)
		}
	}
	for range n {
		select {
		case a := <-answers:
			if a.Header.Get(hdrStarted) != "" || a.Header.Get(hdrStatus) != "503" {
				t.Fatalf("the woken leader answered %v %s, want a 503 refusal and no start", a.Header, a.Data)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the woken leader never answered a command it read late")
		}
	}
	if ran.Load() != 0 {
		t.Fatalf("the woken leader ran %d commands already answered 503", ran.Load())
	}
}

// waitSubscribed waits until a request on subject finds a responder.
func waitSubscribed(t *testing.T, nc *nats.Conn, subject string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// A request without a deadline header is refused with 400 unrun.
		if _, err := nc.Request(subject, nil, time.Second); err == nil {
			return
		}
	}
	t.Fatalf("nobody subscribed to %s", subject)
}

// TestStartedCommandIsNeverAnswered503: a command the leader started but
// that outlives the follower's wait is answered 504 (outcome unknown), not
// 503, because it did run.
func TestStartedCommandIsNeverAnswered503(t *testing.T) {
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	release := make(chan struct{})
	var ran atomic.Int32
	leader := NewForwarder(natsConn(t), cluster, "leader", func() bool { return true }, 300*time.Millisecond)
	follower := NewForwarder(natsConn(t), cluster, "follower", func() bool { return false }, 300*time.Millisecond)
	follower.Leader = func() (string, int64) { return "leader", 1 }
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- leader.Serve(ctx, leader.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			ran.Add(1)
			<-release // slower than the follower waits
		})), 1)
	}()
	defer func() { cancel(); <-served }()
	waitSubscribed(t, follower.nc, cluster+".command.1")

	rec := send(follower.Middleware(http.NotFoundHandler()), `{}`)
	close(release)
	if ran.Load() != 1 {
		t.Fatalf("the command ran %d times, want once", ran.Load())
	}
	if rec.Code != http.StatusGatewayTimeout || errorCode(t, rec) != "outcome_unknown" {
		t.Fatalf("a started command the leader did not answer in time: %d %s, want 504 outcome_unknown", rec.Code, rec.Body)
	}
}

// TestOneLeaderReceivesEachCommand: while two instances serve commands at
// once (a handover: the old leader has not yet stopped, or two serve one
// term), every command runs exactly once.
func TestOneLeaderReceivesEachCommand(t *testing.T) {
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	var mu sync.Mutex
	runs := map[string]int{}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		runs[string(b)]++
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	})
	ctx, cancel := context.WithCancel(context.Background())
	var serving sync.WaitGroup
	defer func() { cancel(); serving.Wait() }()
	// The old leader (term 1) and two instances serving term 2.
	for i, term := range []int64{1, 2, 2} {
		l := NewForwarder(natsConn(t), cluster, fmt.Sprintf("leader%d", i), func() bool { return true }, 2*time.Second)
		serving.Add(1)
		go func() { defer serving.Done(); _ = l.Serve(ctx, l.Middleware(api), term) }()
		waitSubscribed(t, l.nc, cluster+".command."+fmt.Sprint(term))
	}
	follower := NewForwarder(natsConn(t), cluster, "follower", func() bool { return false }, 2*time.Second)
	follower.Leader = func() (string, int64) { return "leader", 2 }
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rec := send(follower.Middleware(http.NotFoundHandler()), fmt.Sprintf(`{"n":%d}`, i)); rec.Code != http.StatusCreated {
				t.Errorf("command %d: %d %s", i, rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(runs) != n {
		t.Errorf("%d distinct commands ran, want %d", len(runs), n)
	}
	for body, k := range runs {
		if k != 1 {
			t.Errorf("command %s ran %d times", body, k)
		}
	}
}

// TestBusyLeaderRefusesAtOnce: with every worker busy, a further command is
// answered 503 with Retry-After at once, and never runs.
func TestBusyLeaderRefusesAtOnce(t *testing.T) {
	cluster := fmt.Sprintf("fwdtest%d", time.Now().UnixNano())
	release := make(chan struct{})
	var ran atomic.Int32
	arrived := make(chan struct{}, 4)
	leader := NewForwarder(natsConn(t), cluster, "leader", func() bool { return true }, 2*time.Second)
	leader.Workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- leader.Serve(ctx, leader.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			ran.Add(1)
			arrived <- struct{}{}
			<-release
		})), 1)
	}()
	defer func() { cancel(); <-served }()
	follower := NewForwarder(natsConn(t), cluster, "follower", func() bool { return false }, 2*time.Second)
	follower.Leader = func() (string, int64) { return "leader", 1 }
	waitSubscribed(t, follower.nc, cluster+".command.1")
	front := follower.Middleware(http.NotFoundHandler())

	busy := make(chan *httptest.ResponseRecorder, 2)
	for range 2 {
		go func() { busy <- send(front, `{}`) }()
		<-arrived
	}
	rec := send(front, `{}`) // both workers are held
	if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "unavailable" || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("with every worker busy: %d %s (Retry-After %q), want 503 unavailable with Retry-After", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	close(release)
	for range 2 {
		if r := <-busy; r.Code != http.StatusOK {
			t.Errorf("a command that had a worker: %d %s", r.Code, r.Body)
		}
	}
	if ran.Load() != 2 {
		t.Fatalf("%d commands ran, want the 2 that had a worker", ran.Load())
	}
}

// TestLateBeatOfAReplacedLeader: a replaced leader's beat that arrives
// after its successor's names a lower term; it neither displaces the
// successor nor ends the era of commands sent to it (whose 503 would then
// claim "not run" for a command the live leader may start).
func TestLateBeatOfAReplacedLeader(t *testing.T) {
	m := &Members{every: time.Second, seen: map[string]seenBeat{}}
	for _, b := range []Beat{{Instance: "new", Leader: true, Term: 6}, {Instance: "old", Leader: true, Term: 5}} {
		raw, _ := json.Marshal(b)
		m.receive(&nats.Msg{Data: raw})
	}
	if l, ok := m.Leader(); !ok || l.Instance != "new" || l.Term != 6 {
		t.Fatalf("leader %+v, want new in term 6", l)
	}
	f := &Forwarder{}
	e := f.observe(6)
	if f.observe(5) != e || e.ctx.Err() != nil {
		t.Fatal("a lower term ended the era of term 6")
	}
	if f.observe(7) == e || e.ctx.Err() == nil {
		t.Fatal("a higher term did not end the era of term 6")
	}
}
