package main

import (
	"bufio"
	"context"

	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/loadgen"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// The crash test runs this test binary as the server: with
// KESTREL_CRASH_CHILD set it is `kestrel serve` and nothing else.
func TestMain(m *testing.M) {
	if os.Getenv("KESTREL_CRASH_CHILD") == "1" {
		if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "kestrel:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// server is one run of the real server process.
type server struct {
	cmd *exec.Cmd
	url string
}

// startServer starts `kestrel serve` on a free loopback port and waits until
// it serves.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "INFO"}, args...)...)
	cmd.Env = append(os.Environ(), "KESTREL_CRASH_CHILD=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "url=http://"); i >= 0 && strings.Contains(line, "kestrel serving") {
				select {
				case found <- strings.Fields(line[i+4:])[0]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return &server{cmd: cmd, url: u}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not start within 20 s")
	}
	return nil
}

// request is one order request of the flood and what became of it.
type request struct {
	cid    string
	market bool
	order  string // the acknowledged order's id ("" when unanswered)
}

// TestKillNineLosesNothingAcknowledged floods the real server with orders
// carrying client order ids (resting limits, market orders that fill,
// cancels), kills it with SIGKILL mid-flood, restarts it and retries every
// request that got no answer. Every acknowledged order must exist exactly
// once with its id, every acknowledged cancel must hold, holds must equal
// the live orders' holds and balances must reconcile with the fills.
func TestKillNineLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server three times")
	}
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		killNine(t, []string{"--data-dir", dir}, func(ctx context.Context) (domain.LedgerStore, func()) {
			st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
			if err != nil {
				t.Fatal(err)
			}
			return st, func() { st.Close() }
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		killNine(t, []string{"--data-dir", t.TempDir(), "--database-url", url}, func(ctx context.Context) (domain.LedgerStore, func()) {
			st, err := postgres.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			return st, func() { st.Close() }
		})
	})
}

func killNine(t *testing.T, args []string, open func(context.Context) (domain.LedgerStore, func())) {
	ctx := context.Background()
	srv := startServer(t, args...)
	c := loadgen.NewClient(srv.url, 16)
	if err := c.SignIn(ctx, "crash@example.com", "crash-test-pass", "Crash", true); err != nil {
		t.Fatal(err)
	}
	var plan loadgen.Plan
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if plan, err = loadgen.Prepare(ctx, c, "BTC-USD", "SELL", decimal.Zero, 50_000, decimal.NewFromInt(1000), io.Discard); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}

	// The flood: 16 clients until the kill, each request with a client order id.
	const clients = 16
	var mu sync.Mutex
	var reqs []*request
	cancelled := map[string]bool{} // order id -> cancel acknowledged
	acked := 0
	killed := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var resting []string
			for i := 0; ; i++ {
				select {
				case <-killed:
					return
				default:
				}
				if i%7 == 6 && len(resting) > 0 { // cancel one of ours
					id := resting[len(resting)-1]
					resting = resting[:len(resting)-1]
					if _, err := c.Do(ctx, http.MethodDelete, "/api/trading/orders/"+id, nil, nil); err == nil {
						mu.Lock()
						cancelled[id] = true
						mu.Unlock()
					}
					continue
				}
				r := &request{cid: fmt.Sprintf("crash-%d-%d", w, i), market: i%5 == 4}
				mu.Lock()
				reqs = append(reqs, r)
				mu.Unlock()
				var out loadgen.OrderReply
				if _, err := c.Do(ctx, http.MethodPost, path(r), body(plan, r), &out); err != nil {
					continue // unanswered (or refused): retried after the restart
				}
				mu.Lock()
				r.order = out.Order.ID
				acked++
				mu.Unlock()
				if !r.market {
					resting = append(resting, out.Order.ID)
				}
			}
		}()
	}
	// Kill once a few hundred orders are acknowledged (at most 5 s in).
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := acked
		mu.Unlock()
		if n >= 400 {
			break
		}
	}
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	close(killed)
	wg.Wait()
	mu.Lock()
	t.Logf("killed after %d acknowledged orders of %d sent, %d cancels acknowledged", acked, len(reqs), len(cancelled))
	mu.Unlock()
	if acked == 0 {
		t.Fatal("no order was acknowledged before the kill")
	}

	// Restart on the same data and retry every unanswered request.
	srv = startServer(t, args...)
	c.Base = srv.url
	retried := 0
	for _, r := range reqs {
		var out loadgen.OrderReply
		status, err := c.Do(ctx, http.MethodPost, path(r), body(plan, r), &out)
		if err != nil {
			t.Fatalf("retry of %s: %v", r.cid, err)
		}
		switch {
		case r.order != "" && (status != http.StatusOK || out.Order.ID != r.order):
			t.Fatalf("%s was acknowledged as %s; after the restart it is %s (status %d)", r.cid, r.order, out.Order.ID, status)
		case r.order == "":
			r.order = out.Order.ID
			retried++
		}
	}
	t.Logf("%d unanswered requests retried", retried)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()

	st, closeStore := open(ctx)
	defer closeStore()
	verifyLedger(t, ctx, st, reqs, cancelled)
}

func path(r *request) string {
	if r.market {
		return "/api/trading/execute"
	}
	return "/api/trading/orders/limit"
}

func body(p loadgen.Plan, r *request) map[string]any {
	if r.market {
		return map[string]any{"symbol": p.Symbol, "action": p.Side, "quantity": p.Quantity.String(), "order_type": "market", "client_order_id": r.cid}
	}
	return map[string]any{"symbol": p.Symbol, "side": p.Side, "quantity": p.Quantity.String(), "price": p.LimitPrice.String(), "client_order_id": r.cid}
}

// verifyLedger checks the journal after the crash: each request's order
// exactly once, acknowledged cancels kept, holds equal to the live orders'
// holds, and every balance equal to the starting funds moved by the fills.
func verifyLedger(t *testing.T, ctx context.Context, st domain.LedgerStore, reqs []*request, cancelled map[string]bool) {
	t.Helper()
	orders, err := st.LedgerOrders(ctx, domain.OrderFilter{Limit: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	byCID := map[string][]domain.Order{}
	byID := map[string]domain.Order{}
	for _, o := range orders {
		byID[o.ID] = o
		if o.ClientOrderID != "" {
			byCID[o.ClientOrderID] = append(byCID[o.ClientOrderID], o)
		}
	}
	for _, r := range reqs {
		got := byCID[r.cid]
		if len(got) != 1 || got[0].ID != r.order {
			t.Fatalf("%s: %d stored orders, want exactly 1 with id %s", r.cid, len(got), r.order)
		}
	}
	for id := range cancelled {
		if o := byID[id]; o.Status != domain.StatusCancelled {
			t.Fatalf("cancel of %s was acknowledged, but it is %q after the restart", id, o.Status)
		}
	}
	fills, err := st.LedgerFills(ctx, domain.FillFilter{Limit: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]decimal.Decimal{"USD": decimal.NewFromInt(100_000)}
	perOrder := map[string]decimal.Decimal{}
	for _, f := range fills {
		base, quote, _ := strings.Cut(f.Symbol, "-")
		notional := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			want[base] = want[base].Add(f.Quantity)
			want[quote] = want[quote].Sub(notional).Sub(f.Fee)
		} else {
			want[base] = want[base].Sub(f.Quantity)
			want[quote] = want[quote].Add(notional).Sub(f.Fee)
		}
		perOrder[f.OrderID] = perOrder[f.OrderID].Add(f.Quantity)
	}
	for id, q := range perOrder {
		if o, ok := byID[id]; !ok || !o.FilledQuantity.Equal(q) {
			t.Fatalf("order %s: filled %s, its fills say %s", id, o.FilledQuantity, q)
		}
	}
	live, err := st.LedgerLiveOrders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	holds := map[string]decimal.Decimal{}
	for _, o := range live {
		if cur := o.HoldCurrency(); cur != "" {
			holds[cur] = holds[cur].Add(o.Hold)
		}
	}
	bals, err := st.LedgerBalances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if !b.Total().Equal(want[b.Currency]) {
			t.Errorf("%s total %s, the fills say %s", b.Currency, b.Total(), want[b.Currency])
		}
		if !b.Hold.Equal(holds[b.Currency]) {
			t.Errorf("%s hold %s, the live orders hold %s", b.Currency, b.Hold, holds[b.Currency])
		}
		delete(want, b.Currency)
	}
	for cur, v := range want {
		if !v.IsZero() {
			t.Errorf("%s: no balance stored, the fills say %s", cur, v)
		}
	}
	t.Logf("%d orders, %d fills, %d live orders checked", len(orders), len(fills), len(live))
}
