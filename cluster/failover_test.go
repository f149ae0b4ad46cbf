package cluster_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"

	"kestrel/store/postgres/pgtest"
)

// instance is one running `kestrel serve`.
type instance struct {
	id, url string
	cmd     *exec.Cmd
	log     *bytes.Buffer
}

// TestFailover starts three real instances on one fresh database, places
// orders on one, sees their fills on another's WebSocket, SIGKILLs the
// leader and checks that a survivor takes over within 10 seconds with no
// acknowledged order lost.
func TestFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 85*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL := natsOrSkip(t)
	bin := buildKestrel(t, ctx)

	suffix := randHex(4)
	cluster := "kestreltest" + suffix
	var all []*instance
	for i := 1; i <= 3; i++ {
		all = append(all, start(t, bin, dbURL, natsURL, cluster, fmt.Sprintf("i%d-%s", i, suffix)))
	}
	for _, in := range all {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, all[0].url)

	// Every instance sees all three and agrees on the leader.
	var leader string
	waitFor(t, ctx, 15*time.Second, "all three instances to see each other and one leader", func() bool {
		seen := map[string]bool{}
		for _, in := range all {
			v, ok := clusterOf(ctx, in.url, token)
			if !ok || len(v.Instances) != 3 || v.Leader == "" || (leader != "" && v.Leader != leader) {
				return false
			}
			leader = v.Leader
			seen[v.Leader] = true
		}
		return len(seen) == 1
	})
	var lead *instance
	var followers []*instance
	for _, in := range all {
		if in.id == leader {
			lead = in
		} else {
			followers = append(followers, in)
		}
	}
	a, b := followers[0], followers[1]
	t.Logf("leader %s; orders go to %s, the WebSocket listens on %s", lead.id, a.id, b.id)

	// Fills of orders placed on A (forwarded to the leader) reach B's WebSocket.
	fills := listen(t, ctx, b.url, token)
	acked := map[string]bool{}
	var filledIDs []string
	for i := range 5 {
		o, status := place(ctx, a.url, token, fmt.Sprintf("mkt-%s-%d", suffix, i), true)
		if status != http.StatusCreated || o.Status != "filled" {
			t.Fatalf("market order %d on a follower: status %d, order %+v\n%s", i, status, o, a.log)
		}
		acked[o.ID] = true
		filledIDs = append(filledIDs, o.ID)
	}
	for _, id := range filledIDs {
		select {
		case <-waitFill(fills, id):
		case <-time.After(10 * time.Second):
			t.Fatalf("the fill of %s never reached the WebSocket of %s", id, b.id)
		}
	}

	// Orders keep coming on A while the leader dies; each retries with its
	// client order id until acknowledged, as a client should.
	stopPlacing := make(chan struct{})
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 25; i++ {
			select {
			case <-stopPlacing:
				return
			default:
			}
			cid := fmt.Sprintf("lmt-%s-%d", suffix, i)
			for ctx.Err() == nil {
				o, status := place(ctx, a.url, token, cid, false)
				if status == http.StatusCreated || status == http.StatusOK {
					mu.Lock()
					acked[o.ID] = true
					mu.Unlock()
					break
				}
				if status != http.StatusServiceUnavailable && status != http.StatusGatewayTimeout {
					t.Errorf("order %s: unexpected status %d", cid, status)
					return
				} // not run, or (504) started by the dying leader and unknown: retry either
				time.Sleep(200 * time.Millisecond)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	time.Sleep(500 * time.Millisecond)
	killed := time.Now()
	t.Logf("SIGKILL %s at %s", lead.id, killed.UTC().Format("15:04:05.000"))
	if err := lead.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = lead.cmd.Wait()

	// Failover ends when an order placed on a survivor fills again: the
	// new leader holds the lock, has rebuilt the engine and answers.
	var after order
	for {
		sent := time.Now()
		o, status := place(ctx, a.url, token, "after-"+suffix, true)
		t.Logf("order after the SIGKILL: %d in %s", status, time.Since(sent).Round(time.Millisecond))
		if status == http.StatusCreated || status == http.StatusOK {
			after = o
			break
		}
		if (status != http.StatusServiceUnavailable && status != http.StatusGatewayTimeout) || time.Since(killed) > 10*time.Second {
			t.Fatalf("order after the SIGKILL: status %d after %s (want a fill within 10 s)", status, time.Since(killed).Round(time.Millisecond))
		}
		time.Sleep(50 * time.Millisecond)
	}
	failover := time.Since(killed)
	if after.Status != "filled" {
		t.Fatalf("market order after failover is %q, want filled", after.Status)
	}
	mu.Lock() // the placing goroutine may still be writing
	acked[after.ID] = true
	mu.Unlock()
	var newLeader string
	waitFor(t, ctx, 5*time.Second, "the survivors to report the new leader", func() bool {
		v, ok := clusterOf(ctx, b.url, token)
		newLeader = v.Leader
		return ok && (v.Leader == a.id || v.Leader == b.id) && len(v.Instances) == 2
	})
	t.Logf("failover: %s took over; first order filled %s after the SIGKILL", newLeader, failover.Round(time.Millisecond))
	if failover > 10*time.Second {
		t.Errorf("failover took %s, want at most 10 s", failover)
	}
	close(stopPlacing)
	wg.Wait()
	select {
	case <-waitFill(fills, after.ID):
	case <-time.After(10 * time.Second):
		t.Fatalf("the fill after failover never reached the WebSocket of %s", b.id)
	}

	// Nothing acknowledged was lost.
	stored := orders(t, ctx, b.url, token)
	for id := range acked {
		if _, ok := stored[id]; !ok {
			t.Errorf("acknowledged order %s is not in the ledger", id)
		}
	}
	for _, id := range filledIDs {
		if stored[id] != "filled" {
			t.Errorf("order %s filled before the failover is now %q", id, stored[id])
		}
	}
	t.Logf("%d acknowledged orders, all in the ledger", len(acked))

	// A logout on one instance ends the session on every instance at once,
	// although each keeps a cache of sessions.
	var login struct {
		Token string `json:"token"`
	}
	if s := call(ctx, "POST", b.url+"/api/auth/login", "", `{"email":"ops@example.com","password":"correct horse 42"}`, &login); login.Token == "" {
		t.Fatalf("login on %s: status %d", b.id, s)
	}
	if s := call(ctx, "GET", a.url+"/api/auth/me", login.Token, "", nil); s != http.StatusOK {
		t.Fatalf("the new session on %s: status %d", a.id, s)
	}
	if s := call(ctx, "POST", b.url+"/api/auth/logout", login.Token, "", nil); s/100 != 2 {
		t.Fatalf("logout on %s: status %d", b.id, s)
	}
	waitFor(t, ctx, 5*time.Second, "the logout on "+b.id+" to reach "+a.id, func() bool {
		return call(ctx, "GET", a.url+"/api/auth/me", login.Token, "", nil) == http.StatusUnauthorized
	})
}

// freshDatabase is a database of the test's own: the instances migrate it
// as a new platform, and killing them touches nobody else's connections.
func freshDatabase(t testing.TB) string {
	t.Helper()
	_, url := pgtest.Database(t)
	return url
}

func natsOrSkip(t testing.TB) string {
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
		fmt.Printf("SKIP: NATS not reachable at %s (%v); the cluster failover test did not run\n", url, err)
		t.Skipf("NATS not reachable: %v", err)
	}
	nc.Close()
	return url
}

func buildKestrel(t testing.TB, ctx context.Context) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kestrel")
	out, err := exec.CommandContext(ctx, "go", "build", "-tags", "noui", "-o", bin, "kestrel/cmd/kestrel").CombinedOutput()
	if err != nil {
		t.Fatalf("build kestrel: %v\n%s", err, out)
	}
	return bin
}

func start(t testing.TB, bin, dbURL, natsURL, cluster, id string, env ...string) *instance {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	in := &instance{id: id, url: "http://" + addr, log: &bytes.Buffer{}}
	in.cmd = exec.Command(bin, "serve", "--addr", addr, "--data-dir", t.TempDir())
	in.cmd.Env = append(os.Environ(), "KESTREL_DATABASE_URL="+dbURL, "KESTREL_LOG_LEVEL="+envOr("KESTREL_TEST_LOG_LEVEL", "WARNING"))
	if natsURL != "" { // empty: one process without a cluster
		in.cmd.Env = append(in.cmd.Env, "KESTREL_NATS_URL="+natsURL, "KESTREL_CLUSTER_NAME="+cluster, "KESTREL_INSTANCE_ID="+id)
	}
	in.cmd.Env = append(in.cmd.Env, env...)
	in.cmd.Stdout, in.cmd.Stderr = in.log, in.log
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if in.cmd.ProcessState == nil {
			_ = in.cmd.Process.Kill()
			_ = in.cmd.Wait()
		}
		if t.Failed() || os.Getenv("KESTREL_TEST_LOG_LEVEL") != "" {
			t.Logf("log of %s:\n%s", in.id, in.log)
		}
	})
	return in
}

func waitReady(t testing.TB, ctx context.Context, in *instance) {
	t.Helper()
	waitFor(t, ctx, 30*time.Second, in.id+" to answer", func() bool {
		resp, err := http.Get(in.url + "/api/system/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

func waitFor(t testing.TB, ctx context.Context, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("gave up after %s waiting for %s", limit, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// client keeps a connection per concurrent caller (the default keeps two
// per host, which would measure connection set-up rather than orders).
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// call sends a JSON request and decodes the envelope's data into out.
func call(ctx context.Context, method, url, token, body string, out any) int {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.NewDecoder(resp.Body).Decode(&env) == nil && out != nil && len(env.Data) > 0 {
		_ = json.Unmarshal(env.Data, out)
	}
	return resp.StatusCode
}

func register(t testing.TB, ctx context.Context, url string) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	if s := call(ctx, "POST", url+"/api/auth/register", "", `{"email":"ops@example.com","name":"Ops","password":"correct horse 42"}`, &out); out.Token == "" {
		t.Fatalf("register: status %d", s)
	}
	return out.Token
}

type clusterView struct {
	Leader    string `json:"leader"`
	Instances []struct {
		ID string `json:"id"`
	} `json:"instances"`
	Engine string
}

func clusterOf(ctx context.Context, url, token string) (clusterView, bool) {
	var st struct {
		Cluster *clusterView `json:"cluster"`
		Engine  struct {
			Status string `json:"status"`
		} `json:"trading_engine"`
	}
	if call(ctx, "GET", url+"/api/system/status", token, "", &st) != http.StatusOK || st.Cluster == nil {
		return clusterView{}, false
	}
	st.Cluster.Engine = st.Engine.Status
	return *st.Cluster, true
}

type order struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// place sends a BUY: a market order, or a limit far below the market
// that rests (no fill, so no protective order counts against the day's trades).
func place(ctx context.Context, url, token, clientID string, market bool) (order, int) {
	var out struct {
		Order order `json:"order"`
	}
	path, body := "/api/trading/orders/limit", fmt.Sprintf(`{"symbol":"BTC-USD","side":"BUY","quantity":"0.011","price":"1000","client_order_id":%q}`, clientID)
	if market {
		path, body = "/api/trading/execute", fmt.Sprintf(`{"symbol":"BTC-USD","action":"BUY","quantity":"0.001","order_type":"market","client_order_id":%q}`, clientID)
	}
	s := call(ctx, "POST", url+path, token, body, &out)
	return out.Order, s
}

func orders(t testing.TB, ctx context.Context, url, token string) map[string]string {
	t.Helper()
	var out struct {
		Orders []order `json:"orders"`
	}
	if s := call(ctx, "GET", url+"/api/trading/orders?limit=1000", token, "", &out); s != http.StatusOK {
		t.Fatalf("list orders: status %d", s)
	}
	m := map[string]string{}
	for _, o := range out.Orders {
		m[o.ID] = o.Status
	}
	return m
}

// fillFeed collects the ids of filled orders seen on a WebSocket.
type fillFeed struct {
	mu      sync.Mutex
	filled  map[string]bool
	waiters map[string]chan struct{}
}

func (f *fillFeed) saw(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.filled[id] = true
	if ch, ok := f.waiters[id]; ok {
		close(ch)
		delete(f.waiters, id)
	}
}

func waitFill(f *fillFeed, id string) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{})
	if f.filled[id] {
		close(ch)
	} else {
		f.waiters[id] = ch
	}
	return ch
}

func listen(t testing.TB, ctx context.Context, url, token string) *fillFeed {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatalf("websocket: %v", err)
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","channels":["trades"],"symbols":["BTC-USD"]}`)); err != nil {
		t.Fatal(err)
	}
	f := &fillFeed{filled: map[string]bool{}, waiters: map[string]chan struct{}{}}
	go func() {
		for {
			_, raw, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				Type string `json:"type"`
				Data struct {
					Order order           `json:"order"`
					Fill  json.RawMessage `json:"fill"`
				} `json:"data"`
			}
			if json.Unmarshal(raw, &m) == nil && m.Type == "trade_update" && len(m.Data.Fill) > 0 && string(m.Data.Fill) != "null" {
				f.saw(m.Data.Order.ID)
			}
		}
	}()
	return f
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// storedClientIDs counts the stored orders by client order id, for the ids
// that start with prefix: the ledger's own record, read as a checker does.
func storedClientIDs(t testing.TB, ctx context.Context, dbURL, prefix string) map[string]int {
	t.Helper()
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	rows, err := admin.Query(ctx, `SELECT client_order_id FROM sandbox_orders WHERE client_order_id LIKE $1`, prefix+"%")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{}
	for rows.Next() {
		var cid string
		if err := rows.Scan(&cid); err != nil {
			t.Fatal(err)
		}
		stored[cid]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return stored
}
