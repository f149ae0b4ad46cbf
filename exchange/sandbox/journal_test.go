package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

// gate holds every commit until released and counts them; it can fail the
// next one without storing it.
type gate struct {
	domain.LedgerStore
	mu       sync.Mutex
	commits  int
	entered  chan struct{} // a commit started
	release  chan struct{} // let one commit go on
	failNext bool
}

func (g *gate) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	g.entered <- struct{}{}
	<-g.release
	g.mu.Lock()
	fail := g.failNext
	g.failNext = false
	g.commits++
	g.mu.Unlock()
	if fail {
		return errors.New("disk full")
	}
	return g.LedgerStore.ApplyLedger(ctx, c)
}

func limit(cid string) domain.OrderRequest {
	return domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000"),
		UserID: "u1", ClientOrderID: cid}
}

// While one commit is under way, the orders that arrive share the next
// one; none is acknowledged before its commit.
func TestConcurrentOrdersShareOneCommit(t *testing.T) {
	e := newEnv(t)
	g := &gate{LedgerStore: e.store, entered: make(chan struct{}, 1), release: make(chan struct{})}
	sb, err := sandbox.New(e.ctx, g, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	first := sb.SubmitOrder(e.ctx, limit("first"))
	<-g.entered // the writer holds the first commit open
	const n = 20
	waits := make([]func() (domain.Order, error), n)
	for i := range waits {
		waits[i] = sb.SubmitOrder(e.ctx, limit(fmt.Sprint("c", i)))
	}
	// Nothing of the second batch is journaled yet: a retry of its client id waits.
	if _, err := e.store.LedgerOrderByClientID(e.ctx, "u1", "c0"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("an order was stored before its commit: %v", err)
	}
	g.release <- struct{}{}
	if _, err := first(); err != nil {
		t.Fatal(err)
	}
	<-g.entered
	g.release <- struct{}{}
	for i, w := range waits {
		o, err := w()
		if err != nil {
			t.Fatal(err)
		}
		if stored, err := e.store.LedgerOrderByClientID(e.ctx, "u1", fmt.Sprint("c", i)); err != nil || stored.ID != o.ID {
			t.Fatalf("acknowledged order %s not stored: %v", o.ID, err)
		}
	}
	if g.commits != 2 {
		t.Fatalf("%d commits for 21 orders in two waves, want 2", g.commits)
	}
	stored, _ := e.store.LedgerBalances(e.ctx)
	for _, b := range stored {
		if b.Currency == "USD" && !b.Hold.Equal(d("8433.6")) { // 21 x 0.01 x 40000 x 1.004
			t.Fatalf("stored USD hold %s, want the 21 orders' 8433.6", b.Hold)
		}
	}
}

// A failed commit fails its batch and every command queued on top of it,
// and the engine is back to the journal's state.
func TestFailedCommitFailsItsBatchAndWhatFollowed(t *testing.T) {
	e := newEnv(t)
	g := &gate{LedgerStore: e.store, entered: make(chan struct{}, 1), release: make(chan struct{})}
	sb, err := sandbox.New(e.ctx, g, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	g.failNext = true
	first := sb.SubmitOrder(e.ctx, limit("doomed"))
	<-g.entered
	later := sb.SubmitOrder(e.ctx, limit("after")) // computed on top of the doomed one
	g.release <- struct{}{}
	if _, err := first(); err == nil {
		t.Fatal("the failed commit was acknowledged")
	}
	if _, err := later(); err == nil {
		t.Fatal("an order queued after the failed commit was acknowledged")
	}
	live, _ := sb.LiveOrders(e.ctx)
	if len(live) != 0 {
		t.Fatalf("%d live orders after the failed commit, want 0", len(live))
	}
	bals, _ := sb.Balances(e.ctx)
	for _, b := range bals {
		if b.Currency == "USD" && !b.Hold.IsZero() {
			t.Fatalf("USD hold %s after the failed commit", b.Hold)
		}
	}
	// The retry succeeds, once.
	retry := sb.SubmitOrder(e.ctx, limit("doomed"))
	<-g.entered
	g.release <- struct{}{}
	if _, err := retry(); err != nil {
		t.Fatal(err)
	}
}

// A repeated client order id while the first is still being journaled gets
// the first order, once it is durable.
func TestRepeatedClientIDWhileJournaling(t *testing.T) {
	e := newEnv(t)
	g := &gate{LedgerStore: e.store, entered: make(chan struct{}, 1), release: make(chan struct{})}
	sb, err := sandbox.New(e.ctx, g, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	first := sb.SubmitOrder(e.ctx, limit("same"))
	<-g.entered
	again := sb.SubmitOrder(e.ctx, limit("same"))
	byID := make(chan domain.Order, 1)
	go func() { o, _ := sb.OrderByClientID(e.ctx, "u1", "same"); byID <- o }()
	g.release <- struct{}{}
	a, err := first()
	if err != nil {
		t.Fatal(err)
	}
	b, err := again()
	if err != nil || b.ID != a.ID {
		t.Fatalf("repeat gave %s (%v), want the first order %s", b.ID, err, a.ID)
	}
	if o := <-byID; o.ID != a.ID {
		t.Fatalf("OrderByClientID gave %q, want %s", o.ID, a.ID)
	}
	live, _ := sb.LiveOrders(e.ctx)
	if len(live) != 1 {
		t.Fatalf("%d live orders, want 1", len(live))
	}
}

// slowLookup answers a client order id lookup with what the journal held
// when the lookup started, but only once released: a read that started
// before the first order was journaled and reaches the engine after.
type slowLookup struct {
	*gate
	started chan struct{}
	answer  chan struct{}
	calls   int
}

func (s *slowLookup) LedgerOrderByClientID(ctx context.Context, userID, cid string) (domain.Order, error) {
	s.calls++
	if s.calls == 1 { // the first order's id was new: only the repeat reads the journal
		s.started <- struct{}{}
		<-s.answer
		return domain.Order{}, domain.Errorf(domain.ENotFound, "Order not found")
	}
	return s.gate.LedgerOrderByClientID(ctx, userID, cid)
}

func TestRepeatedClientIDWhoseLookupRacedTheCommit(t *testing.T) {
	e := newEnv(t)
	g := &gate{LedgerStore: e.store, entered: make(chan struct{}, 1), release: make(chan struct{})}
	sl := &slowLookup{gate: g, started: make(chan struct{}), answer: make(chan struct{})}
	sb, err := sandbox.New(e.ctx, sl, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	first := sb.SubmitOrder(e.ctx, limit("raced"))
	<-g.entered
	second := make(chan func() (domain.Order, error), 1)
	go func() { second <- sb.SubmitOrder(e.ctx, limit("raced")) }()
	<-sl.started // the second lookup saw the journal before the first commit
	g.release <- struct{}{}
	a, err := first()
	if err != nil {
		t.Fatal(err)
	}
	close(sl.answer) // ...and reaches the engine after it
	b, err := (<-second)()
	if err != nil || b.ID != a.ID {
		t.Fatalf("repeat gave %q (%v), want the first order %s", b.ID, err, a.ID)
	}
	if live, _ := sb.LiveOrders(e.ctx); len(live) != 1 {
		t.Fatalf("%d live orders, want 1", len(live))
	}
}
