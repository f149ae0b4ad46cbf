package sandbox_test

import (
	"context"
	"errors"
	"testing"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

// down is a ledger whose database goes away: while writesOff is set
// commits fail, while off is set reads fail too, as a dropped connection
// does (a plain error, as a driver gives); nothing is written.
type down struct {
	domain.LedgerStore
	off, writesOff bool
}

var errConnLost = errors.New("connection terminated by the server")

func (s *down) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	if s.off || s.writesOff {
		return errConnLost
	}
	return s.LedgerStore.ApplyLedger(ctx, c)
}

func (s *down) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	if s.off {
		return nil, errConnLost
	}
	return s.LedgerStore.LedgerBalances(ctx)
}

func (s *down) LedgerOrderByClientID(ctx context.Context, user, cid string) (domain.Order, error) {
	if s.off {
		return domain.Order{}, errConnLost
	}
	return s.LedgerStore.LedgerOrderByClientID(ctx, user, cid)
}

// A commit that fails is refused as 503 "unavailable" with a message that
// says to retry (the driver's error kept as the cause, not shown), the
// engine forgets the change, and once the database is back the retry with
// the same client order id places the order exactly once.
func TestFailedCommitIsUnavailableAndRetrySafe(t *testing.T) {
	e := newEnv(t)
	st := &down{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	req := domain.OrderRequest{UserID: "u1", ClientOrderID: "c1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")}
	st.writesOff = true
	_, err = sb.PlaceOrder(e.ctx, req)
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.EUnknownOutcome || de.Message != sandbox.MsgNotStored || !errors.Is(err, errConnLost) {
		t.Fatalf("failed commit: %#v, want EUnknownOutcome %q caused by the driver's error", err, sandbox.MsgNotStored)
	}
	st.off = true
	// Down altogether: the next command is refused the same way.
	if _, err := sb.PlaceOrder(e.ctx, domain.OrderRequest{UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")}); domain.ErrorCode(err) != domain.EUnknownOutcome {
		t.Fatalf("while down: %v, want EUnknownOutcome", err)
	}
	st.off, st.writesOff = false, false
	o, err := sb.PlaceOrder(e.ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := sb.PlaceOrder(e.ctx, req)
	if err != nil || again.ID != o.ID {
		t.Fatalf("second retry: %v %+v, want the same order %s", err, again, o.ID)
	}
	live, _ := e.store.LedgerLiveOrders(e.ctx)
	if len(live) != 1 || live[0].ClientOrderID != "c1" {
		t.Fatalf("live orders %+v, want exactly the one with c1", live)
	}
	bals, _ := e.store.LedgerBalances(e.ctx)
	for _, b := range bals {
		if b.Currency == "USD" {
			eq(t, "USD hold of the one order", b.Hold, live[0].Hold.String())
		}
	}
}

// A refusal the store gives (a client order id taken) is not a lost
// database: it stays what it is.
func TestStoreRefusalIsNotUnavailable(t *testing.T) {
	e := newEnv(t)
	refuse := &refusing{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, refuse, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	refuse.on = true
	_, err = sb.PlaceOrder(e.ctx, domain.OrderRequest{UserID: "u1", ClientOrderID: "c2", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	if domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("got %v, want the store's conflict", err)
	}
}

type refusing struct {
	domain.LedgerStore
	on bool
}

func (s *refusing) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	if s.on {
		return domain.Errorf(domain.EConflict, "Client order id c2 is already used")
	}
	return s.LedgerStore.ApplyLedger(ctx, c)
}

// A commit the cluster fence refused (another instance leads now) reaches
// the caller as the store said it, 503 "no longer runs the trading engine":
// it was not stored, so the retry belongs on the new leader. The engine
// forgets the change.
func TestFencedCommitSaysThisInstanceNoLongerLeads(t *testing.T) {
	e := newEnv(t)
	st := &superseded{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	st.on = true
	_, err = sb.PlaceOrder(e.ctx, domain.OrderRequest{UserID: "u1", ClientOrderID: "c3", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	if domain.ErrorCode(err) != domain.EUnavailable || domain.ErrorMessage(err) != domain.MsgNotLeader {
		t.Fatalf("fenced commit: %v, want EUnavailable %q", err, domain.MsgNotLeader)
	}
	st.on = false
	if live, err := sb.LiveOrders(e.ctx); err != nil || len(live) != 0 {
		t.Fatalf("live orders after the fenced commit: %+v, %v; want none", live, err)
	}
}

type superseded struct {
	domain.LedgerStore
	on bool
}

func (s *superseded) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	if s.on {
		return domain.Unavailable(errors.New("ledger fence: epoch 1 has been superseded"), domain.MsgNotLeader)
	}
	return s.LedgerStore.ApplyLedger(ctx, c)
}
