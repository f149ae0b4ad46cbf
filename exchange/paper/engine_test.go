package paper_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/paper"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func dp(s string) *decimal.Decimal {
	v := d(s)
	return &v
}

func eq(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(d(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// newEngine funds 100,000 USD and quotes BTC at 50,000 (bid/ask a cent either side).
func newEngine(t *testing.T, maker, taker string) *paper.Engine {
	t.Helper()
	e := paper.New(paper.Config{Products: candles.Products(), MakerFee: d(maker), TakerFee: d(taker)})
	e.Deposit("USD", d("100000"))
	quote(e, "BTC-USD", "50000", "", "")
	return e
}

func quote(e *paper.Engine, sym, last, low, high string) paper.Change {
	l := d(last)
	q := paper.Quote{Symbol: sym, Last: l, Bid: l.Sub(d("0.01")), Ask: l.Add(d("0.01"))}
	if low != "" {
		q.Low, q.High = d(low), d(high)
	}
	return e.OnQuote(t0, q)
}

func balance(e *paper.Engine, cur string) domain.Balance {
	for _, b := range e.Balances() {
		if b.Currency == cur {
			return b
		}
	}
	return domain.Balance{}
}

func place(t *testing.T, e *paper.Engine, req domain.OrderRequest) domain.Order {
	t.Helper()
	o, _, err := e.Place(t0, req)
	if err != nil {
		t.Fatalf("place %+v: %v", req, err)
	}
	return o
}

func buy(qty string) domain.OrderRequest {
	return domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d(qty)}
}

func TestZeroFeeIsAFee(t *testing.T) {
	e := newEngine(t, "0", "0")
	o := place(t, e, buy("1"))
	eq(t, "fee", o.Fee, "0")
	eq(t, "USD", balance(e, "USD").Available, "49999.99") // bought at the ask, 50,000.01
}

func TestTouchedPriceBetweenQuotesFills(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	o := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	c := quote(e, "BTC-USD", "50100", "48990", "50200") // dipped to 48,990 between quotes, now back up
	if len(c.Fills) != 1 {
		t.Fatalf("fills = %d, want 1: the dip to 48,990 touched the 49,000 limit", len(c.Fills))
	}
	eq(t, "fill price", c.Fills[0].Price, "49000")
	if c.Orders[0].ID != o.ID || c.Orders[0].Status != domain.StatusFilled {
		t.Fatalf("order not filled: %+v", c.Orders)
	}
}

func TestLimitsFillAgainstTheBookNotLast(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	// Last reaches the limit, but the ask (a cent above) does not.
	if c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("49000"), Bid: d("48999.99"), Ask: d("49000.01")}); len(c.Fills) != 0 {
		t.Fatalf("filled against last: %+v", c.Fills)
	}
	if c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("48999.99"), Bid: d("48999.98"), Ask: d("49000")}); len(c.Fills) != 1 {
		t.Fatalf("ask at the limit did not fill")
	}
}

func TestHoldIsStoredNotRecomputed(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	o := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("40000")})
	eq(t, "hold", o.Hold, "40160") // 40,000 + 0.4% maker fee
	// Restart with another maker fee: the order keeps its hold.
	e2 := paper.New(paper.Config{Products: candles.Products(), MakerFee: d("0"), TakerFee: d("0")})
	e2.Load(e.Balances(), e.Positions(), e.LiveOrders())
	if _, _, err := e2.Cancel(t0, o.ID, ""); err != nil {
		t.Fatal(err)
	}
	eq(t, "USD hold after cancel", balance(e2, "USD").Hold, "0")
	eq(t, "USD available after cancel", balance(e2, "USD").Available, "100000")
}

func TestProtectiveGroupHoldsOnceAndCancelsTheOther(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, buy("1"))
	sl := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("1"), StopPrice: dp("45000"), GroupID: "g"})
	tp := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("1"), Price: dp("52000"), GroupID: "g"})
	eq(t, "stop hold", sl.Hold, "1")
	eq(t, "take-profit hold", tp.Hold, "0")
	eq(t, "BTC hold", balance(e, "BTC").Hold, "1")
	c := quote(e, "BTC-USD", "52001", "", "")
	if len(c.Fills) != 1 || c.Fills[0].OrderID != tp.ID {
		t.Fatalf("want the take-profit filled, got %+v", c.Fills)
	}
	if _, live := e.LiveOrder(sl.ID); live {
		t.Fatal("stop-loss still live after its take-profit filled")
	}
	eq(t, "BTC", balance(e, "BTC").Total(), "0")
	if bad := e.HoldsReconcile(); bad != nil {
		t.Fatal(bad)
	}
}

func TestResizingAGroupMemberResizesItsHold(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, buy("1"))
	sl := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("1"), StopPrice: dp("45000"), GroupID: "g"})
	tp := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("1"), Price: dp("52000"), GroupID: "g"})
	for _, id := range []string{sl.ID, tp.ID} {
		if _, _, err := e.Modify(t0, id, dp("0.4"), nil); err != nil {
			t.Fatal(err)
		}
	}
	eq(t, "BTC hold", balance(e, "BTC").Hold, "0.4")
	eq(t, "BTC available", balance(e, "BTC").Available, "0.6")
}

func TestModifyMakingALimitMarketableFillsAsTaker(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	o := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	m, c, err := e.Modify(t0, o.ID, nil, dp("51000"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != domain.StatusFilled || len(c.Fills) != 1 || c.Fills[0].Liquidity != "taker" {
		t.Fatalf("modified order = %s, fills %+v; want filled as taker", m.Status, c.Fills)
	}
	eq(t, "fill price", c.Fills[0].Price, "50000.01")
	eq(t, "USD hold", balance(e, "USD").Hold, "0")
}

func TestSameInputsSameLedger(t *testing.T) {
	run := func() []domain.Balance {
		e := newEngine(t, "0.004", "0.006")
		place(t, e, buy("0.5"))
		place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("0.2"), Price: dp("50500")})
		quote(e, "BTC-USD", "50600", "", "")
		return e.Balances()
	}
	a, b := run(), run()
	for i := range a {
		if !a[i].Available.Equal(b[i].Available) || !a[i].Hold.Equal(b[i].Hold) {
			t.Fatalf("runs differ: %+v vs %+v", a, b)
		}
	}
}

// NoUpdates changes nothing but the stream of updates: the same orders,
// fills and balances, and no update copied per state change.
func TestNoUpdatesKeepsTheChange(t *testing.T) {
	var changes [2][]paper.Change
	for i, no := range []bool{false, true} {
		e := paper.New(paper.Config{Products: candles.Products(), MakerFee: d("0.004"), TakerFee: d("0.006"), NoUpdates: no})
		e.Deposit("USD", d("100000"))
		quote(e, "BTC-USD", "50000", "", "")
		_, buy, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.5")})
		if err != nil {
			t.Fatal(err)
		}
		_, stop, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("0.5"), StopPrice: dp("49000")})
		if err != nil {
			t.Fatal(err)
		}
		changes[i] = []paper.Change{buy, stop, quote(e, "BTC-USD", "48900", "", "")}
	}
	for k := range changes[0] {
		with, without := changes[0][k], changes[1][k]
		if len(with.Updates) == 0 || len(without.Updates) != 0 {
			t.Fatalf("change %d: %d updates with them, %d without", k, len(with.Updates), len(without.Updates))
		}
		with.Updates = nil
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("change %d differs:\n%+v\n%+v", k, with, without)
		}
	}
}
