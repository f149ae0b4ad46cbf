// Package exchangetest is the contract every domain.Exchange passes: the
// sandbox now, and a live or backtesting exchange later. It checks behaviour
// through the interface only, reconciling balances with the exchange's own
// fills and fees rather than with one implementation's rates. A harness
// that can inject failures (Faults) also runs the fault cases: timeouts,
// 429 and 5xx on create, cancel, modify and reads, never a duplicate order.
package exchangetest

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Harness is one fresh exchange funded with USD only, whose BTC-USD market
// the test moves.
type Harness struct {
	Exchange domain.Exchange
	// Move sets the market price of a symbol and lets the exchange match it.
	Move func(t *testing.T, symbol, price string)
	// Faults injects request failures; nil skips the fault cases.
	Faults *Faults
}

// Run runs the contract; open returns a fresh harness with BTC-USD at 50,000.
func Run(t *testing.T, open func(t *testing.T) Harness) {
	tests := []struct {
		name string
		fn   func(*testing.T, Harness)
	}{
		{"MarketBuyThenSellReconciles", marketRoundTrip},
		{"InsufficientBalanceStoresNothing", insufficient},
		{"LimitRestsHoldsAndFills", limitRests},
		{"CancelReleasesAndOnlyOnce", cancel},
		{"ModifyOnlyLiveLimits", modify},
		{"StopLossTriggers", stopLoss},
		{"ClientOrderIDIsIdempotent", idempotent},
		{"ClientOrderIDsArePerUser", perUser},
		{"ProductsHaveIncrements", products},
		{"UpdatesStreamEveryChange", updates},
		{"LiveOrdersOnlyTheLiveOnes", liveOrders},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
	runFaults(t, open)
}

var ctx = context.Background()

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func dp(s string) *decimal.Decimal {
	v := d(s)
	return &v
}

func balance(t *testing.T, x domain.Exchange, cur string) domain.Balance {
	t.Helper()
	bals, err := x.Balances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if b.Currency == cur {
			return b
		}
	}
	return domain.Balance{Currency: cur}
}

func place(t *testing.T, x domain.Exchange, r domain.OrderRequest) domain.Order {
	t.Helper()
	o, err := x.PlaceOrder(ctx, r)
	if err != nil {
		t.Fatalf("PlaceOrder %+v: %v", r, err)
	}
	return o
}

func order(t *testing.T, x domain.Exchange, id string) domain.Order {
	t.Helper()
	o, err := x.Order(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func code(t *testing.T, err error, want string) {
	t.Helper()
	if domain.ErrorCode(err) != want {
		t.Fatalf("error %v, want code %s", err, want)
	}
}

func marketRoundTrip(t *testing.T, h Harness) {
	x := h.Exchange
	usd0 := balance(t, x, "USD").Available
	buy := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")})
	if buy.Status != domain.StatusFilled || !buy.FilledQuantity.Equal(d("0.1")) || buy.AvgFillPrice == nil || !buy.Fee.IsPositive() {
		t.Fatalf("market buy: %+v", buy)
	}
	sell := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("0.04")})
	if sell.Status != domain.StatusFilled {
		t.Fatalf("market sell: %+v", sell)
	}
	fills, err := x.Fills(ctx, domain.FillFilter{})
	if err != nil || len(fills) != 2 {
		t.Fatalf("fills %+v %v", fills, err)
	}
	want := usd0
	for _, f := range fills {
		n := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			want = want.Sub(n).Sub(f.Fee)
		} else {
			want = want.Add(n).Sub(f.Fee)
		}
	}
	if got := balance(t, x, "USD").Available; !got.Equal(want) {
		t.Fatalf("USD %s, fills say %s", got, want)
	}
	if got := balance(t, x, "BTC").Available; !got.Equal(d("0.06")) {
		t.Fatalf("BTC %s, want 0.06", got)
	}
}

func insufficient(t *testing.T, h Harness) {
	x := h.Exchange
	usd := balance(t, x, "USD").Available
	huge := usd.Div(d("50000")).Mul(d("2")).Round(8)
	_, err := x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: huge})
	code(t, err, domain.ERejected)
	if domain.ErrorMessage(err) != "Insufficient balance for this trade" {
		t.Fatalf("message %q", domain.ErrorMessage(err))
	}
	_, err = x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("1")})
	code(t, err, domain.ERejected)
	if os, _ := x.Orders(ctx, domain.OrderFilter{}); len(os) != 0 {
		t.Fatalf("refused orders stored: %+v", os)
	}
	if !balance(t, x, "USD").Available.Equal(usd) {
		t.Fatal("a refused order moved money")
	}
}

func limitRests(t *testing.T, h Harness) {
	x := h.Exchange
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	if !o.Status.Live() {
		t.Fatalf("limit below the market should rest: %+v", o)
	}
	if !balance(t, x, "USD").Hold.IsPositive() {
		t.Fatal("a resting buy holds USD")
	}
	h.Move(t, "BTC-USD", "49500")
	if !order(t, x, o.ID).Status.Live() {
		t.Fatal("filled above its limit")
	}
	h.Move(t, "BTC-USD", "48990")
	got := order(t, x, o.ID)
	if got.Status != domain.StatusFilled || got.AvgFillPrice.GreaterThan(d("49000")) {
		t.Fatalf("after the market crossed: %+v", got)
	}
	if !balance(t, x, "USD").Hold.IsZero() {
		t.Fatalf("hold left after the fill: %s", balance(t, x, "USD").Hold)
	}
}

func cancel(t *testing.T, h Harness) {
	x := h.Exchange
	usd := balance(t, x, "USD")
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	c, err := x.CancelOrder(ctx, o.ID)
	if err != nil || c.Status != domain.StatusCancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	if b := balance(t, x, "USD"); !b.Available.Equal(usd.Available) || !b.Hold.Equal(usd.Hold) {
		t.Fatalf("balance after cancel %+v, before %+v", b, usd)
	}
	_, err = x.CancelOrder(ctx, o.ID)
	code(t, err, domain.EConflict)
	_, err = x.CancelOrder(ctx, "no-such-order")
	code(t, err, domain.ENotFound)
	h.Move(t, "BTC-USD", "39000")
	if order(t, x, o.ID).Status != domain.StatusCancelled {
		t.Fatal("a cancelled order filled")
	}
}

func modify(t *testing.T, h Harness) {
	x := h.Exchange
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	m, err := x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000"))
	if err != nil || !m.Quantity.Equal(d("0.2")) || !m.Price.Equal(d("45000")) {
		t.Fatalf("modify: %+v %v", m, err)
	}
	h.Move(t, "BTC-USD", "44900")
	if order(t, x, o.ID).Status != domain.StatusFilled {
		t.Fatal("the modified order did not fill at its new price")
	}
	_, err = x.ModifyOrder(ctx, o.ID, dp("0.3"), nil)
	code(t, err, domain.EConflict)
	mkt := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")})
	_, err = x.ModifyOrder(ctx, mkt.ID, nil, dp("1"))
	code(t, err, domain.EConflict)
}

func stopLoss(t *testing.T, h Harness) {
	x := h.Exchange
	place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")})
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("0.1"), StopPrice: dp("48000")})
	if !o.Status.Live() {
		t.Fatalf("stop should rest: %+v", o)
	}
	h.Move(t, "BTC-USD", "48500")
	if !order(t, x, o.ID).Status.Live() {
		t.Fatal("triggered above its stop")
	}
	h.Move(t, "BTC-USD", "47900")
	got := order(t, x, o.ID)
	if got.Status != domain.StatusFilled || !got.FilledQuantity.Equal(d("0.1")) {
		t.Fatalf("stop after the market fell through it: %+v", got)
	}
	if !balance(t, x, "BTC").Available.Add(balance(t, x, "BTC").Hold).IsZero() {
		t.Fatal("BTC left after the stop sold everything")
	}
}

func idempotent(t *testing.T, h Harness) {
	x := h.Exchange
	r := domain.OrderRequest{ClientOrderID: "contract-1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")}
	a := place(t, x, r)
	b := place(t, x, r)
	if a.ID != b.ID {
		t.Fatalf("the same client order id placed two orders: %s, %s", a.ID, b.ID)
	}
	if os, _ := x.Orders(ctx, domain.OrderFilter{}); len(os) != 1 {
		t.Fatalf("orders %d, want 1", len(os))
	}
}

func perUser(t *testing.T, h Harness) {
	x := h.Exchange
	r := domain.OrderRequest{ClientOrderID: "same", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01"), UserID: "u1"}
	a := place(t, x, r)
	r.UserID = "u2"
	b := place(t, x, r)
	if a.ID == b.ID {
		t.Fatal("two users' orders with the same client id were taken as one")
	}
	got, err := x.OrderByClientID(ctx, "u2", "same")
	if err != nil || got.ID != b.ID {
		t.Fatalf("lookup by client id: %+v %v", got, err)
	}
}

func products(t *testing.T, h Harness) {
	ps, err := h.Exchange.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Symbol == "BTC-USD" && p.PriceIncrement.IsPositive() && p.SizeIncrement.IsPositive() && !p.MinSize.IsNegative() {
			return
		}
	}
	t.Fatalf("no BTC-USD product with increments: %+v", ps)
}

func updates(t *testing.T, h Harness) {
	x := h.Exchange
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	ups := x.Updates(sub)
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	h.Move(t, "BTC-USD", "48990")
	var seen []domain.OrderStatus
	for len(seen) < 2 {
		select {
		case u := <-ups:
			if u.Order.ID != o.ID {
				continue
			}
			seen = append(seen, u.Order.Status)
			if u.Order.Status == domain.StatusFilled && u.Fill == nil {
				t.Fatal("a fill update without its fill")
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("updates seen %v, want open then filled", seen)
		}
	}
	if seen[0] != domain.StatusOpen || seen[1] != domain.StatusFilled {
		t.Fatalf("updates %v, want [open filled]", seen)
	}
}

func liveOrders(t *testing.T, h Harness) {
	x := h.Exchange
	a := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	b := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("41000")})
	place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")})
	if _, err := x.CancelOrder(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	live, err := x.LiveOrders(ctx)
	if err != nil || len(live) != 1 || live[0].ID != b.ID {
		t.Fatalf("live orders %+v %v, want only %s", live, err, b.ID)
	}
}
