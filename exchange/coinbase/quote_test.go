package coinbase_test

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// A $500 market buy made in the Coinbase app at 50,000 (quote_size, so its
// fill's size is 500 with size_in_quote) is 0.01 BTC everywhere: the fill
// and the order on the user channel, the orders and fills listings, the
// position's quantity and cost basis, and the P&L of selling it.
func TestQuoteSizedFillIsBookedInBase(t *testing.T) {
	r := newRig(t, 5*time.Second)
	sub, stop := context.WithCancel(ctx)
	defer stop()
	ups := r.x.Updates(sub)
	state, _ := startStream(t, r)
	if !<-state {
		t.Fatal("stream did not connect")
	}
	waitFor(t, "the user subscription", func() bool { return r.fake.Subscribers("user") == 1 })
	id, err := r.fake.PlaceQuoteOrder("BTC-USD", "BUY", "500")
	if err != nil {
		t.Fatal(err)
	}
	if f := r.fake.Fills(); len(f) != 1 || f[0].Size != "500" || !f[0].SizeInQuote {
		t.Fatalf("the fake's fill %+v, want size 500 in quote", f)
	}
	u := nextFill(t, ups, id)
	if !u.Fill.Quantity.Equal(d("0.01")) || !u.Fill.Price.Equal(d("50000")) || !u.Fill.Fee.Equal(d("3")) {
		t.Fatalf("fill update %+v, want BUY 0.01 BTC-USD @ 50000, fee 3", u.Fill)
	}
	if !u.Order.Quantity.Equal(d("0.01")) || !u.Order.FilledQuantity.Equal(d("0.01")) || u.Order.Status != domain.StatusFilled {
		t.Fatalf("order update %+v", u.Order)
	}
	orders, err := r.x.Orders(ctx, domain.OrderFilter{})
	if err != nil || len(orders) != 1 || !orders[0].Quantity.Equal(d("0.01")) {
		t.Fatalf("orders %+v %v", orders, err)
	}
	fills, err := r.x.Fills(ctx, domain.FillFilter{})
	if err != nil || len(fills) != 1 || !fills[0].Quantity.Equal(d("0.01")) {
		t.Fatalf("fills %+v %v", fills, err)
	}
	acct, err := r.x.Account(ctx)
	if err != nil || len(acct.Positions) != 1 {
		t.Fatalf("account %+v %v", acct, err)
	}
	if b := acct.Positions[0]; !b.Quantity.Equal(d("0.01")) || !b.Cost.Equal(d("503")) {
		t.Fatalf("position %s cost %s, want 0.01 at a cost of 503 (500 + 3 fee)", b.Quantity, b.Cost)
	}
	r.fake.SetPrice("BTC-USD", "52000")
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("0.01")}); err != nil {
		t.Fatalf("selling the 0.01 bought: %v", err)
	}
	acct, _ = r.x.Account(ctx)
	b := acct.Positions[0]
	if !b.Quantity.IsZero() || !b.Cost.IsZero() || !b.Realized.Equal(d("13.88")) { // 520 - 3.12 fee - 503
		t.Fatalf("after the sale: position %s cost %s realized %s, want flat with 13.88", b.Quantity, b.Cost, b.Realized)
	}
	usd, _ := r.fake.Balance("USD")
	if !usd.Equal(d("100013.88")) {
		t.Fatalf("the exchange holds %s USD, the ledger says 100013.88", usd)
	}
}
