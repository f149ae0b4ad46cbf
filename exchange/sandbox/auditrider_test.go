package sandbox_test

import (
	"context"
	"sync"
	"testing"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

// recordingLedger keeps every change it stores and can refuse the next.
type recordingLedger struct {
	domain.LedgerStore
	mu       sync.Mutex
	changes  []domain.LedgerChange
	failNext bool
}

func (r *recordingLedger) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	r.mu.Lock()
	fail := r.failNext
	r.failNext = false
	r.mu.Unlock()
	if fail {
		return domain.Errorf(domain.EUnavailable, "disk gone")
	}
	if err := r.LedgerStore.ApplyLedger(ctx, c); err != nil {
		return err
	}
	r.mu.Lock()
	r.changes = append(r.changes, c)
	r.mu.Unlock()
	return nil
}

func (r *recordingLedger) audited() []domain.AuditEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.AuditEntry
	for _, c := range r.changes {
		out = append(out, c.Audit...)
	}
	return out
}

// A request's audit entry is journaled in the commit that stores its order
// and marked stored; a refused order or a failed commit leaves it to the
// API layer.
func TestAuditRiderIsJournaledWithItsOrder(t *testing.T) {
	e := newEnv(t)
	st := &recordingLedger{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	rider := func(detail string) *domain.AuditRider {
		return domain.NewAuditRider("", func(o domain.Order) domain.AuditEntry {
			return domain.AuditEntry{Action: "POST /orders", Status: 201, Detail: detail + " " + o.ID}
		})
	}

	r1 := rider("placed")
	o, err := sb.PlaceOrder(domain.WithAuditRider(e.ctx, r1), limit("rider-1"))
	if err != nil {
		t.Fatal(err)
	}
	if !r1.Stored() {
		t.Fatal("the rider of a placed order is not marked stored")
	}
	if got := st.audited(); len(got) != 1 || got[0].Detail != "placed "+o.ID {
		t.Fatalf("journaled audit entries = %+v, want one for %s", got, o.ID)
	}

	// The same rider is taken once: a second order in the same request does not carry it again.
	if _, err := sb.PlaceOrder(domain.WithAuditRider(e.ctx, r1), limit("rider-2")); err != nil {
		t.Fatal(err)
	}
	if got := st.audited(); len(got) != 1 {
		t.Fatalf("a rider was journaled %d times", len(got))
	}

	// Refused by the engine (no funds): nothing journaled, not stored.
	r3 := rider("refused")
	big := limit("rider-3")
	big.Quantity = d("1000")
	if _, err := sb.PlaceOrder(domain.WithAuditRider(e.ctx, r3), big); err == nil {
		t.Fatal("an order beyond the balance was accepted")
	}
	if r3.Stored() || len(st.audited()) != 1 {
		t.Fatalf("a refused order's rider: stored %v, entries %d", r3.Stored(), len(st.audited()))
	}

	// A failed commit: the order is not acknowledged and the rider not stored.
	st.mu.Lock()
	st.failNext = true
	st.mu.Unlock()
	r4 := rider("failed")
	if _, err := sb.PlaceOrder(domain.WithAuditRider(e.ctx, r4), limit("rider-4")); err == nil {
		t.Fatal("an order whose commit failed was acknowledged")
	}
	if r4.Stored() || len(st.audited()) != 1 {
		t.Fatalf("a failed commit's rider: stored %v, entries %d", r4.Stored(), len(st.audited()))
	}
}

// A modify's or cancel's rider goes only with the command on its own order:
// another order cancelled on the way (room for a SELL) does not take it.
func TestAuditRiderFollowsItsTarget(t *testing.T) {
	e := newEnv(t)
	st := &recordingLedger{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	a, err := sb.PlaceOrder(e.ctx, limit("target-a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sb.PlaceOrder(e.ctx, limit("target-b"))
	if err != nil {
		t.Fatal(err)
	}
	r := domain.NewAuditRider(b.ID, func(o domain.Order) domain.AuditEntry {
		return domain.AuditEntry{Action: "DELETE /orders/" + b.ID, Status: 200, Detail: "cancelled " + o.ID}
	})
	ctx := domain.WithAuditRider(e.ctx, r)
	if _, err := sb.CancelOrder(ctx, a.ID); err != nil { // another order, in the same request
		t.Fatal(err)
	}
	if r.Stored() || len(st.audited()) != 0 {
		t.Fatalf("the rider went with another order's cancel: stored %v, %+v", r.Stored(), st.audited())
	}
	if _, err := sb.CancelOrder(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if got := st.audited(); !r.Stored() || len(got) != 1 || got[0].Detail != "cancelled "+b.ID {
		t.Fatalf("after its own cancel: stored %v, entries %+v", r.Stored(), got)
	}
}
