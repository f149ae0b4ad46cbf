package coinbase_test

import (
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase/coinbasefake"
)

// routesSince is the order-changing requests the fake served after the first n.
func routesSince(r *rig, n int) []string {
	var out []string
	for _, x := range r.fake.Requests()[n:] {
		if strings.HasPrefix(x, "POST ") {
			out = append(out, x)
		}
	}
	return out
}

// Coinbase does not edit stops: a modified stop is a new stop placed first
// and the old one cancelled after (never the other way round), keeping
// owner, group and parent; the answer is the new stop.
func TestModifyStopPlacesNewThenCancelsOld(t *testing.T) {
	r := newRig(t, 5*time.Second)
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("300")}); err != nil {
		t.Fatal(err)
	}
	old, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("100"),
		StopPrice: dp("0.4321"), UserID: "u1", GroupID: "protect-f1", ParentID: "buy-1"})
	if err != nil {
		t.Fatal(err)
	}
	n := len(r.fake.Requests())
	got, err := r.x.ModifyOrder(ctx, old.ID, dp("150"), dp("0.44"))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID == old.ID || got.Type != domain.StopLoss || !got.StopPrice.Equal(d("0.44")) || !got.Quantity.Equal(d("150")) ||
		!got.Status.Live() || got.UserID != "u1" || got.GroupID != "protect-f1" || got.ParentID != "buy-1" {
		t.Fatalf("replacement %+v", got)
	}
	if seq := routesSince(r, n); len(seq) != 2 || seq[0] != "POST /orders" || seq[1] != "POST /orders/batch_cancel" {
		t.Fatalf("order of operations %v, want create then cancel", seq)
	}
	if o, _ := r.x.Order(ctx, old.ID); o.Status != domain.StatusCancelled {
		t.Fatalf("old stop %s", o.Status)
	}
	if _, hold := r.fake.Balance("ADA"); !hold.Equal(d("150")) {
		t.Fatalf("ADA on hold %s, want the new stop's 150", hold)
	}
}

// When the replacement cannot be placed (refused), the old stop stays as
// it was: nothing is cancelled first.
func TestRefusedReplacementLeavesTheStop(t *testing.T) {
	r := newRig(t, 5*time.Second)
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("300")}); err != nil {
		t.Fatal(err)
	}
	old, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("100"), StopPrice: dp("0.4321")})
	if err != nil {
		t.Fatal(err)
	}
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Reject: "INVALID_STOP_PRICE"})
	if _, err := r.x.ModifyOrder(ctx, old.ID, nil, dp("0.44")); err == nil {
		t.Fatal("a refused replacement reported success")
	}
	if o, _ := r.x.Order(ctx, old.ID); !o.Status.Live() || !o.StopPrice.Equal(d("0.4321")) {
		t.Fatalf("old stop after a refused replacement: %+v", o)
	}
}
