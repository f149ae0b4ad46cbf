package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/postgres/pgtest"
)

// TestFencedTakeover freezes the leader while its connections stay open,
// the window the fence closes: the leader is paused (SIGSTOP) with orders
// in flight, its lease expires, the follower takes over, and the old
// leader resumes. Every write to the
// ledger tables is recorded with the instance that made it and the fencing
// epoch at that moment: the old leader must not write once the epoch has
// moved, every acknowledged order must be in the ledger exactly once as
// acknowledged, and the USD hold must still match the live orders.
func TestFencedTakeover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_, dbURL := pgtest.Database(t)
	natsURL := natsOrSkip(t)
	bin := buildKestrel(t, ctx)

	suffix := randHex(4)
	name := "kestrelfence" + suffix
	byID := map[string]*instance{}
	for i := 1; i <= 2; i++ {
		id := fmt.Sprintf("f%d-%s", i, suffix)
		in := start(t, bin, appNamed(t, dbURL, id), natsURL, name, id) // its connections carry its id
		waitReady(t, ctx, in)
		byID[id] = in
	}
	var first *instance
	for _, in := range byID {
		first = in
	}
	token := register(t, ctx, first.url)
	var leader string
	waitFor(t, ctx, 15*time.Second, "both instances to agree on a leader", func() bool {
		seen := map[string]bool{}
		for _, in := range byID {
			v, ok := clusterOf(ctx, in.url, token)
			if !ok || len(v.Instances) != 2 || v.Leader == "" {
				return false
			}
			seen[v.Leader] = true
			leader = v.Leader
		}
		return len(seen) == 1
	})
	if s := call(ctx, "PUT", first.url+"/api/settings", token,
		`{"trading":{"riskManagement":{"maxDailyTrades":1000,"maxPositionSize":0.5}}}`, nil); s != http.StatusOK {
		t.Fatalf("raise the risk limits: status %d", s)
	}
	old := byID[leader]
	var next *instance
	for id, in := range byID {
		if id != leader {
			next = in
		}
	}

	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Each statement writing the ledger records who wrote and the epoch
	// committed when it ran (a fresh snapshot per statement in PL/pgSQL).
	exec(`CREATE TABLE fence_probe (app TEXT NOT NULL, epoch BIGINT, tbl TEXT NOT NULL)`)
	exec(`CREATE FUNCTION fence_probe() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO fence_probe SELECT current_setting('application_name'), (SELECT epoch FROM cluster_fence WHERE id = 1), TG_TABLE_NAME;
			RETURN NULL;
		END $$`)
	for _, tbl := range []string{"sandbox_orders", "sandbox_fills", "sandbox_balances", "sandbox_positions"} {
		exec(`CREATE TRIGGER fence_probe AFTER INSERT OR UPDATE ON ` + tbl + ` FOR EACH STATEMENT EXECUTE FUNCTION fence_probe()`)
	}
	var oldEpoch int64
	if err := admin.QueryRow(ctx, `SELECT epoch FROM cluster_fence WHERE id = 1`).Scan(&oldEpoch); err != nil {
		t.Fatalf("the leader's epoch: %v", err)
	}

	// Clients place resting orders on the old leader without pause, each
	// retrying a 503 with its client order id, as a client should.
	type ack struct{ cid, id string }
	var mu sync.Mutex
	var acks []ack
	notLeader := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				cid := fmt.Sprintf("fence-%s-%d-%d", suffix, c, i)
				for {
					var msg string
					o, status := placeOn(ctx, old.url, token, cid, &msg)
					if status == http.StatusCreated || status == http.StatusOK {
						mu.Lock()
						acks = append(acks, ack{cid, o.ID})
						mu.Unlock()
						break
					}
					if (status != http.StatusServiceUnavailable && status != http.StatusGatewayTimeout) || ctx.Err() != nil {
						t.Errorf("order %s: status %d %s", cid, status, msg)
						return
					}
					if msg == domain.MsgNotLeader {
						mu.Lock()
						notLeader++
						mu.Unlock()
					}
					time.Sleep(100 * time.Millisecond)
				}
				time.Sleep(30 * time.Millisecond) // paced: the run stays inside the day's trade limit
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)

	// Pause the leader mid-flight: its connections stay open, its lease is
	// no longer renewed.
	if err := old.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_ = old.cmd.Process.Signal(syscall.SIGCONT)
		}
	}
	defer resume()
	cut := time.Now() // its lease is no longer renewed: it expires

	// The follower takes the lock and moves the epoch on, or waits for it
	// behind a commit the paused leader began before the cut.
	waitFor(t, ctx, 10*time.Second, next.id+" to take over the fence", func() bool {
		var moved, waiting bool
		err := admin.QueryRow(ctx, `SELECT (SELECT epoch FROM cluster_fence WHERE id = 1) > $1,
			EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%cluster_fence%')`,
			oldEpoch).Scan(&moved, &waiting)
		return err == nil && (moved || waiting)
	})
	t.Logf("%s took over %s after the cut; resuming %s", next.id, time.Since(cut).Round(time.Millisecond), old.id)
	resume()
	waitFor(t, ctx, 10*time.Second, next.id+" to lead", func() bool {
		v, ok := clusterOf(ctx, next.url, token)
		return ok && v.Leader == next.id
	})
	time.Sleep(time.Second) // orders keep coming through the old leader, now forwarded
	close(stop)
	wg.Wait()

	var late, oldWrites, newWrites int
	err = admin.QueryRow(ctx, `SELECT count(*) FILTER (WHERE app = $1 AND epoch > $3), count(*) FILTER (WHERE app = $1), count(*) FILTER (WHERE app = $2)
		FROM fence_probe`, old.id, next.id, oldEpoch).Scan(&late, &oldWrites, &newWrites)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d orders acknowledged; %d refused as no longer leading; ledger writes: %s %d, %s %d", len(acks), notLeader, old.id, oldWrites, next.id, newWrites)
	if late > 0 {
		t.Errorf("%s wrote the ledger %d times after %s had moved the epoch on", old.id, late, next.id)
	}
	if newWrites == 0 {
		t.Errorf("%s never wrote the ledger after taking over: the takeover was not exercised", next.id)
	}

	stored := map[string]string{}
	rows, err := admin.Query(ctx, `SELECT client_order_id, id FROM sandbox_orders WHERE client_order_id LIKE 'fence-%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var cid, id string
		if err := rows.Scan(&cid, &id); err != nil {
			t.Fatal(err)
		}
		if _, twice := stored[cid]; twice {
			t.Errorf("client order id %s stored twice", cid)
		}
		stored[cid] = id
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, a := range acks {
		if stored[a.cid] != a.id {
			t.Errorf("acknowledged order %s (%s) is stored as %q", a.id, a.cid, stored[a.cid])
		}
	}
	// One writer at a time keeps the USD hold equal to the live orders'.
	var hold, live string
	err = admin.QueryRow(ctx, `SELECT (SELECT hold FROM sandbox_balances WHERE currency = 'USD'),
		(SELECT coalesce(sum(hold::numeric), 0)::text FROM sandbox_orders WHERE status IN ('pending', 'open'))`).Scan(&hold, &live)
	if err != nil {
		t.Fatal(err)
	}
	if !sameDecimal(t, ctx, admin, hold, live) {
		t.Errorf("USD hold %s, live orders hold %s", hold, live)
	}
}

// appNamed is dbURL with the connections named id (application_name).
func appNamed(t testing.TB, dbURL, id string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", id)
	u.RawQuery = q.Encode()
	return u.String()
}

// placeOn places a resting limit BUY and keeps the error message.
func placeOn(ctx context.Context, base, token, cid string, msg *string) (order, int) {
	var out struct {
		Order order `json:"order"`
	}
	body := fmt.Sprintf(`{"symbol":"BTC-USD","side":"BUY","quantity":"0.011","price":"1000","client_order_id":%q}`, cid)
	status, message := callWithError(ctx, "POST", base+"/api/trading/orders/limit", token, body, &out)
	*msg = message
	return out.Order, status
}

func sameDecimal(t testing.TB, ctx context.Context, conn *pgx.Conn, a, b string) bool {
	t.Helper()
	var same bool
	if err := conn.QueryRow(ctx, `SELECT $1::numeric = $2::numeric`, a, b).Scan(&same); err != nil {
		t.Fatal(err)
	}
	return same
}

// callWithError is call that also returns the envelope's error message.
func callWithError(ctx context.Context, method, url, token, body string, out any) (int, string) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var env struct {
		Data  json.RawMessage `json:"data"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.NewDecoder(resp.Body).Decode(&env) == nil && len(env.Data) > 0 {
		_ = json.Unmarshal(env.Data, out)
	}
	return resp.StatusCode, env.Error.Message
}
