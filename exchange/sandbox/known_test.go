package sandbox_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

// countingLookups counts the journal reads of client order ids.
type countingLookups struct {
	domain.LedgerStore
	reads atomic.Int64
}

func (c *countingLookups) LedgerOrderByClientID(ctx context.Context, userID, cid string) (domain.Order, error) {
	c.reads.Add(1)
	return c.LedgerStore.LedgerOrderByClientID(ctx, userID, cid)
}

// New client order ids are told apart from retries in memory; a retry still
// finds its first order, across a restart too, and an engine told that
// another instance journals (Invalidate) trusts its memory no more.
func TestNewClientIDsNeedNoJournalRead(t *testing.T) {
	e := newEnv(t)
	st := &countingLookups{LedgerStore: e.store}
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]string{}
	for i := range 50 {
		cid := fmt.Sprint("new-", i)
		// The gateway asks before it places, as for every order.
		if _, err := sb.OrderByClientID(e.ctx, "u1", cid); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("lookup of new id %s: %v, want not_found", cid, err)
		}
		o, err := sb.PlaceOrder(e.ctx, limit(cid))
		if err != nil {
			t.Fatal(err)
		}
		first[cid] = o.ID
	}
	if n := st.reads.Load(); n != 0 {
		t.Fatalf("%d journal reads for 50 new client order ids, want 0", n)
	}
	again, err := sb.PlaceOrder(e.ctx, limit("new-7"))
	if err != nil || again.ID != first["new-7"] {
		t.Fatalf("retry gave %q (%v), want %s", again.ID, err, first["new-7"])
	}

	// Restarted: the ids come back from the journal.
	sb2, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		t.Fatal(err)
	}
	before := st.reads.Load()
	got, err := sb2.OrderByClientID(e.ctx, "u1", "new-3")
	if err != nil || got.ID != first["new-3"] {
		t.Fatalf("after restart: %q (%v), want %s", got.ID, err, first["new-3"])
	}
	retry, err := sb2.PlaceOrder(e.ctx, limit("new-4"))
	if err != nil || retry.ID != first["new-4"] {
		t.Fatalf("retry after restart gave %q (%v), want %s", retry.ID, err, first["new-4"])
	}
	if st.reads.Load() == before {
		t.Fatal("a known id was answered without reading the journal")
	}
	if _, err := sb2.OrderByClientID(e.ctx, "u2", "new-3"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("another user's id: %v, want not_found", err)
	}
	if live, _ := sb2.LiveOrders(e.ctx); len(live) != 50 {
		t.Fatalf("%d live orders, want 50", len(live))
	}

	before = st.reads.Load()
	sb2.Invalidate()
	if _, err := sb2.OrderByClientID(e.ctx, "u1", "never-seen"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("lookup after Invalidate: %v", err)
	}
	if st.reads.Load() == before {
		t.Fatal("after Invalidate an unknown id must be read from the journal: another instance may have written it")
	}
}
