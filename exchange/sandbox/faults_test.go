package sandbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/exchangetest"
	"kestrel/exchange/sandbox"
)

func TestRestartWithAnotherMakerFeeKeepsHolds(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("40000")})
	eq(t, "hold at 0.4%", o.Hold, "40160")
	e.store.Close()
	e.opt.MakerFee = decimal.Zero // a fee of 0 is a valid fee
	e.open()
	eq(t, "USD hold after restart", e.balance("USD").Hold, "40160")
	if _, err := e.sb.CancelOrder(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	eq(t, "USD hold after cancel", e.balance("USD").Hold, "0")
	eq(t, "USD available after cancel", e.balance("USD").Available, "100000")
}

func TestTouchedBetweenTicksFills(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	e.tick("BTC-USD", "50000") // seen once, so the next tick has a "since"
	e.prices.rng = map[string][2]decimal.Decimal{"BTC-USD": {d("48950"), d("50100")}}
	e.tick("BTC-USD", "50050") // dipped to 48,950 in between (a dropped tick), back up now
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusFilled {
		t.Fatalf("a limit whose price was touched between ticks did not fill: %+v", got)
	}
	eq(t, "filled at its limit", *got.AvgFillPrice, "49000")
}

// flaky commits a change and then reports an error once: the outcome of a
// commit the exchange could not confirm.
type flaky struct {
	domain.LedgerStore
	failNext bool
}

func (f *flaky) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	if err := f.LedgerStore.ApplyLedger(ctx, c); err != nil {
		return err
	}
	if f.failNext {
		f.failNext = false
		return errors.New("connection reset while committing")
	}
	return nil
}

func TestUnknownCommitOutcomeNeverFillsTwice(t *testing.T) {
	e := newEnv(t)
	fl := &flaky{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, fl, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	o, err := sb.PlaceOrder(e.ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	if err != nil {
		t.Fatal(err)
	}
	fl.failNext = true
	e.prices.set("BTC-USD", "48900")
	if err := sb.OnTick(e.ctx, domain.Tick{Symbol: "BTC-USD"}); err == nil {
		t.Fatal("the failed commit was not reported")
	}
	e.prices.set("BTC-USD", "48800")
	if err := sb.OnTick(e.ctx, domain.Tick{Symbol: "BTC-USD"}); err != nil {
		t.Fatal(err)
	}
	fills, _ := sb.Fills(e.ctx, domain.FillFilter{})
	if len(fills) != 1 {
		t.Fatalf("fills = %d, want 1 (the first commit did land)", len(fills))
	}
	if got, _ := sb.Order(e.ctx, o.ID); got.Status != domain.StatusFilled {
		t.Fatalf("order %+v", got)
	}
	bals, _ := sb.Balances(e.ctx)
	for _, b := range bals {
		if b.Currency == "BTC" && !b.Available.Equal(d("0.1")) {
			t.Fatalf("BTC %s, want 0.1", b.Available)
		}
		if b.Currency == "USD" && !b.Hold.IsZero() {
			t.Fatalf("USD hold %s after the fill", b.Hold)
		}
	}
}

func TestRestartReconcilesHoldsWithLiveOrders(t *testing.T) {
	e := newEnv(t)
	e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("40000")})
	// A journal whose USD hold disagrees with its one live order (an older build's fault).
	bad := domain.Balance{Currency: "USD", Available: d("59840"), Hold: d("-5")}
	if err := e.store.ApplyLedger(e.ctx, domain.LedgerChange{Balances: []domain.Balance{bad}}); err != nil {
		t.Fatal(err)
	}
	e.store.Close()
	e.open()
	b := e.balance("USD")
	eq(t, "USD hold = the live order's hold", b.Hold, "40160")
	eq(t, "USD total kept, the hold taken from available", b.Available, "19675") // 59835 - 40160
	stored, _ := e.store.LedgerBalances(e.ctx)
	for _, s := range stored {
		if s.Currency == "USD" && !s.Hold.Equal(d("40160")) {
			t.Fatalf("reconciled hold not stored: %+v", s)
		}
	}
}

// journalFaults is the journal with the contract's faults: a commit that
// lands and is reported failed (a timeout: the answer lost) or one refused
// with nothing written (a server error). A command's commit is the first
// after it, so the next commit is the next command's.
type journalFaults struct {
	domain.LedgerStore
	mu            sync.Mutex
	lost, refused int
}

func (j *journalFaults) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.refused > 0 {
		j.refused--
		return errors.New("connection reset before the commit")
	}
	if err := j.LedgerStore.ApplyLedger(ctx, c); err != nil {
		return err
	}
	if j.lost > 0 {
		j.lost--
		return errors.New("connection reset while committing")
	}
	return nil
}

// failNext arms a contract fault, or says why it means nothing here.
func (j *journalFaults) failNext(op exchangetest.Op, f exchangetest.Fault) string {
	if op == exchangetest.Read {
		return "the sandbox reads its engine's memory and its ledger store: no request goes out to fail " +
			"(a database that cannot answer is the PostgreSQL outage test's subject, cmd/kestrel)"
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch f {
	case exchangetest.Timeout:
		j.lost++
	case exchangetest.ServerError:
		j.refused++
	default:
		return "the sandbox is a local engine: nothing limits its request rate"
	}
	return ""
}

func (j *journalFaults) armed() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lost + j.refused
}
