package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/postgres"
)

func usd(amount int64) domain.LedgerChange {
	return domain.LedgerChange{Balances: []domain.Balance{{Currency: "USD", Available: decimal.NewFromInt(amount)}}}
}

// order is a change placing one order with a client order id.
func order(id string) domain.LedgerChange {
	now := time.Now().UTC().Truncate(time.Microsecond)
	return domain.LedgerChange{Orders: []domain.Order{{ID: id, ClientOrderID: "cid-" + id, Symbol: "BTC-USD", Side: domain.Buy,
		Type: domain.Limit, Quantity: decimal.RequireFromString("0.5"), Price: ptr(decimal.NewFromInt(1000)),
		Status: domain.StatusOpen, UserID: "u1", CreatedAt: now, UpdatedAt: now}}}
}

func ptr[T any](v T) *T { return &v }

func balanceUSD(t *testing.T, s *postgres.Store) string {
	t.Helper()
	bals, err := s.LedgerBalances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if b.Currency == "USD" {
			return b.Available.String()
		}
	}
	return "none"
}

func wantFenced(t *testing.T, err error) {
	t.Helper()
	if domain.ErrorCode(err) != domain.EUnavailable || domain.ErrorMessage(err) != domain.MsgNotLeader {
		t.Fatalf("commit of the superseded leader: %v, want EUnavailable %q", err, domain.MsgNotLeader)
	}
}

// Once B has moved the epoch on, A (fenced at the old one) can no longer
// commit, and its refused change writes nothing; B commits; a store never
// fenced (one process) is not affected.
func TestFenceRefusesTheSupersededLeader(t *testing.T) {
	ctx := context.Background()
	a, b, _ := twoStores(t)

	if e, err := a.AdvanceFence(ctx); err != nil || e != 1 {
		t.Fatalf("A takes the fence: epoch %d, %v; want 1", e, err)
	}
	if err := a.ApplyLedger(ctx, usd(100)); err != nil {
		t.Fatalf("A commits at its epoch: %v", err)
	}
	if e, err := b.AdvanceFence(ctx); err != nil || e != 2 {
		t.Fatalf("B takes the fence: epoch %d, %v; want 2", e, err)
	}
	change := usd(999)
	change.Orders = order("o-a").Orders
	wantFenced(t, a.ApplyLedger(ctx, change))
	if got := balanceUSD(t, b); got != "100" {
		t.Errorf("USD after A's refused commit = %s, want 100 (nothing written)", got)
	}
	if _, err := b.LedgerOrder(ctx, "o-a"); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("A's refused order: %v, want not found", err)
	}
	if err := b.ApplyLedger(ctx, usd(200)); err != nil {
		t.Fatalf("B commits at the new epoch: %v", err)
	}
	if got := balanceUSD(t, a); got != "200" {
		t.Errorf("USD after B's commit = %s, want 200", got)
	}

	alone := openStore(t) // its own schema: no fence row at all
	if err := alone.ApplyLedger(ctx, usd(5)); err != nil {
		t.Fatalf("a store never fenced: %v", err)
	}
}

// The fence row lock orders a commit against the takeover: while A's
// commit holds the fence, B's advance waits; A's commit lands, then B's
// advance completes, and A's next commit is refused.
func TestFenceSerialisesTheTakeoverWithACommit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b, conn := twoStores(t)
	postgres.SetFenceGrace(b, time.Minute) // a commit under way: waited for, never ended
	if _, err := a.AdvanceFence(ctx); err != nil {
		t.Fatal(err)
	}
	committed, let := holdAtFence(t, ctx, a)
	took := advance(ctx, b)
	// B's update must be waiting on A's row lock, not merely slow.
	for waiting := false; !waiting; {
		select {
		case r := <-took:
			t.Fatalf("B advanced the fence (epoch %d, %v) while A's commit held it", r.epoch, r.err)
		case <-ctx.Done():
			t.Fatal("B's advance never waited on the fence row")
		case <-time.After(20 * time.Millisecond):
		}
		err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO cluster_fence%')`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
	}

	let()
	if err := <-committed; err != nil {
		t.Fatalf("A's commit that held the fence before the takeover: %v", err)
	}
	r := <-took
	if r.err != nil || r.epoch != 2 {
		t.Fatalf("B's advance after A's commit: epoch %d, %v; want 2", r.epoch, r.err)
	}
	if _, err := b.LedgerOrder(ctx, "o-1"); err != nil {
		t.Fatalf("A's commit before the takeover is not stored: %v", err)
	}
	wantFenced(t, a.ApplyLedger(ctx, order("o-2")))
	if _, err := b.LedgerOrder(ctx, "o-2"); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("A's commit after the takeover: %v, want not found", err)
	}
	if err := b.ApplyLedger(ctx, order("o-3")); err != nil {
		t.Fatalf("B commits: %v", err)
	}
}

// A commit that holds the fence and never finishes (its process frozen
// between its statements and its COMMIT, the connection open) does not
// hold the takeover up for good: after the grace, B's advance ends A's
// session, which rolls A's commit back whole, and B takes the fence.
func TestFenceTakeoverEndsAStalledCommit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b, _ := twoStores(t)
	postgres.SetFenceGrace(b, 200*time.Millisecond)
	if _, err := a.AdvanceFence(ctx); err != nil {
		t.Fatal(err)
	}
	committed, let := holdAtFence(t, ctx, a) // stalled until let
	took := advance(ctx, b)
	select {
	case r := <-took:
		if r.err != nil || r.epoch != 2 {
			t.Fatalf("B's advance past the stalled commit: epoch %d, %v; want 2", r.epoch, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("B's advance is still waiting on A's stalled commit after 10 s")
	}
	let()
	if err := <-committed; err == nil {
		t.Fatal("A's stalled commit succeeded after its session was ended")
	}
	if _, err := b.LedgerOrder(ctx, "o-1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("A's stalled commit: %v, want not found (rolled back)", err)
	}
	wantFenced(t, a.ApplyLedger(ctx, order("o-2")))
	if err := b.ApplyLedger(ctx, order("o-3")); err != nil {
		t.Fatalf("B commits: %v", err)
	}
}

// holdAtFence starts A's commit of order o-1 and returns once the commit
// holds the fence, its statements run and its COMMIT not sent: committed
// answers the commit, let lets it go on (also when the test ends, before
// the stores close: cleanups run last first, and a failed test must not
// leave A's commit waiting).
func holdAtFence(t *testing.T, ctx context.Context, a *postgres.Store) (committed <-chan error, let func()) {
	t.Helper()
	holding, release := make(chan struct{}), make(chan struct{})
	var released sync.Once
	let = func() { released.Do(func() { close(release) }) }
	t.Cleanup(let)
	postgres.SetAfterFence(a, func() { close(holding); <-release })
	done := make(chan error, 1)
	go func() { done <- a.ApplyLedger(ctx, order("o-1")) }()
	select {
	case <-holding:
	case err := <-done:
		t.Fatalf("A's commit ended without holding the fence: %v", err)
	case <-ctx.Done():
		t.Fatal("A's commit never reached the fence")
	}
	postgres.SetAfterFence(a, nil) // read by the next commit only: this one is past it
	return done, let
}

// advanced is what an AdvanceFence answered.
type advanced struct {
	epoch int64
	err   error
}

// advance starts b's AdvanceFence and answers its outcome.
func advance(ctx context.Context, b *postgres.Store) <-chan advanced {
	took := make(chan advanced, 1)
	go func() { e, err := b.AdvanceFence(ctx); took <- advanced{e, err} }()
	return took
}

// BenchmarkApplyLedger is one command's commit (an order and its balance)
// without and with the fence check, which rides in the same round trip.
func BenchmarkApplyLedger(b *testing.B) {
	for _, fence := range []bool{false, true} {
		b.Run(map[bool]string{false: "unfenced", true: "fenced"}[fence], func(b *testing.B) {
			ctx := context.Background()
			s := openStore(b)
			if fence {
				if _, err := s.AdvanceFence(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				c := order(fmt.Sprintf("o-%d", i))
				c.Balances = usd(int64(i)).Balances
				if err := s.ApplyLedger(ctx, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
