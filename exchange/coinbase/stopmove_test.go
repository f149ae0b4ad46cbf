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

// Coinbase edits a GTC stop-limit in place: a stop guarding the whole
// position gets its new stop price (and the limit behind it) or a smaller
// size with one edit, keeping its id and hold, with no moment unguarded. A
// stop price the market already reached is refused and the stop stays.
func TestModifyStopEditsInPlace(t *testing.T) {
	r := newRig(t, 5*time.Second)
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("100")}); err != nil {
		t.Fatal(err)
	}
	old, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("100"),
		StopPrice: dp("0.4321"), UserID: "u1", GroupID: "protect-f1", ParentID: "buy-1"})
	if err != nil {
		t.Fatal(err)
	}
	n := len(r.fake.Requests())
	got, err := r.x.ModifyOrder(ctx, old.ID, nil, dp("0.43"))
	if err != nil || got.ID != old.ID || !got.StopPrice.Equal(d("0.43")) || !got.Quantity.Equal(d("100")) || got.GroupID != "protect-f1" || got.ParentID != "buy-1" {
		t.Fatalf("edited stop %+v %v", got, err)
	}
	if seq := routesSince(r, n); len(seq) != 1 || seq[0] != "POST /orders/edit" {
		t.Fatalf("requests %v, want one edit", seq)
	}
	if c := stopAtFake(t, r, old.ID); c.StopPrice != "0.43" || c.LimitPrice != "0.4257" { // 0.43 x 0.99
		t.Fatalf("at Coinbase: %+v", c)
	}
	if got, err = r.x.ModifyOrder(ctx, old.ID, dp("60"), nil); err != nil || got.ID != old.ID || !got.Quantity.Equal(d("60")) {
		t.Fatalf("smaller stop %+v %v", got, err)
	}
	if _, hold := r.fake.Balance("ADA"); !hold.Equal(d("60")) {
		t.Fatalf("ADA on hold %s, want the stop's 60", hold)
	}
	if _, err := r.x.ModifyOrder(ctx, old.ID, nil, dp("0.46")); domain.ErrorCode(err) != domain.ERejected ||
		!strings.Contains(domain.ErrorMessage(err), "STOP_PRICE_ABOVE_LAST_TRADE_PRICE") {
		t.Fatalf("a stop above the price (0.45): %v", err)
	}
	if c := stopAtFake(t, r, old.ID); c.StopPrice != "0.43" {
		t.Fatalf("stop after a refused edit: %+v", c)
	}
}

// stopAtFake is the stop-limit configuration Coinbase holds for order id.
func stopAtFake(t *testing.T, r *rig, id string) coinbasefake.StopLimitGTC {
	t.Helper()
	for _, o := range r.fake.Orders() {
		if o.OrderID == id && o.OrderConfiguration.StopLimitGTC != nil {
			return *o.OrderConfiguration.StopLimitGTC
		}
	}
	t.Fatalf("no stop-limit %s at Coinbase", id)
	return coinbasefake.StopLimitGTC{}
}

// Where Coinbase edits limit orders only, a modified stop is a new stop
// placed first and the old one cancelled after (never the other way
// round), keeping owner, group and parent; the answer is the new stop.
func TestModifyStopPlacesNewThenCancelsOld(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.RefuseStopEdits()
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
	if seq := routesSince(r, n); len(seq) != 3 || seq[0] != "POST /orders/edit" || seq[1] != "POST /orders" || seq[2] != "POST /orders/batch_cancel" {
		t.Fatalf("order of operations %v, want the refused edit, then create, then cancel", seq)
	}
	if o, _ := r.x.Order(ctx, old.ID); o.Status != domain.StatusCancelled {
		t.Fatalf("old stop %s", o.Status)
	}
	if _, hold := r.fake.Balance("ADA"); !hold.Equal(d("150")) {
		t.Fatalf("ADA on hold %s, want the new stop's 150", hold)
	}
}

// Where the stop is replaced and the replacement cannot be placed
// (refused), the old stop stays as it was: nothing is cancelled first.
func TestRefusedReplacementLeavesTheStop(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.RefuseStopEdits()
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
