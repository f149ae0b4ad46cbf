package paper_test

import (
	"testing"

	"kestrel/domain"
	"kestrel/exchange/paper"
)

func bookQuote(e *paper.Engine, asks, bids []paper.Level) {
	e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("50000"), Bid: bids[0].Price, Ask: asks[0].Price, Asks: asks, Bids: bids})
}

func lv(price, size string) paper.Level { return paper.Level{Price: d(price), Size: d(size)} }

// The worked example of docs/COINBASE.md: 0.5 BTC bought against asks of
// 0.2 at 50,000.00, 0.2 at 50,010.00 and 0.3 at 50,025.00 fills 0.2, 0.2
// and 0.1 at those prices: 25,004.50 for an average of 50,009.00, and a
// taker fee of 0.6% on each level (150.027 in all).
func TestMarketOrderWalksTheBook(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	bookQuote(e, []paper.Level{lv("50000.00", "0.2"), lv("50010.00", "0.2"), lv("50025.00", "0.3")}, []paper.Level{lv("49990.00", "1")})
	o, c, err := e.Place(t0, buy("0.5"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != domain.StatusFilled || len(c.Fills) != 3 {
		t.Fatalf("order %+v, %d fills", o, len(c.Fills))
	}
	for i, want := range [][2]string{{"0.2", "50000"}, {"0.2", "50010"}, {"0.1", "50025"}} {
		eq(t, "fill quantity", c.Fills[i].Quantity, want[0])
		eq(t, "fill price", c.Fills[i].Price, want[1])
		if c.Fills[i].Liquidity != "taker" {
			t.Errorf("fill %d liquidity %s", i, c.Fills[i].Liquidity)
		}
	}
	eq(t, "average fill price", *o.AvgFillPrice, "50009")
	eq(t, "fee", o.Fee, "150.027")
	eq(t, "USD left", balance(e, "USD").Available, "74845.473") // 100,000 - 25,004.50 - 150.027
	eq(t, "BTC bought", balance(e, "BTC").Available, "0.5")
}

// A market order larger than the whole book fills what the book holds and
// the rest is cancelled, with the reason; a SELL walks the bids.
func TestMarketOrderBeyondTheBookFillsInPart(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, buy("1"))
	bookQuote(e, []paper.Level{lv("50001", "5")}, []paper.Level{lv("49990", "0.3"), lv("49980", "0.2")})
	o, c, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("0.8")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != domain.StatusCancelled || o.RejectReason != paper.MsgBookExhausted || len(c.Fills) != 2 {
		t.Fatalf("order %+v, %d fills", o, len(c.Fills))
	}
	eq(t, "filled", o.FilledQuantity, "0.5")
	eq(t, "average", *o.AvgFillPrice, "49986")
	eq(t, "BTC left", balance(e, "BTC").Available, "0.5")
	if _, live := e.LiveOrder(o.ID); live {
		t.Fatal("a cancelled market order is live")
	}
}

// The whole walk must be affordable, fees included, or nothing fills.
func TestBookWalkBeyondTheFundsFillsNothing(t *testing.T) {
	e := newEngine(t, "0", "0.006")
	bookQuote(e, []paper.Level{lv("50000", "1"), lv("60000", "1")}, []paper.Level{lv("49990", "1")})
	if _, _, err := e.Place(t0, buy("1.9")); domain.ErrorCode(err) != domain.ERejected {
		t.Fatalf("1.9 BTC costing 104,000 with 100,000: %v", err)
	}
	eq(t, "USD untouched", balance(e, "USD").Available, "100000")
}

// On a market that reports its trades a resting limit fills only once a
// trade printed at or through its price, at its limit, as a maker: the
// ask coming down to it is not enough.
func TestRestingLimitFillsOnlyOnATradeThroughIt(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	o := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49900")})
	// The book's ask at 49,890, trades only at 49,950 and above.
	c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("49950"), Bid: d("49880"), Ask: d("49890"), Low: d("49950"), High: d("50000"),
		TradeThrough: true, Traded: true})
	if len(c.Fills) != 0 {
		t.Fatalf("filled on the book alone: %+v", c.Fills)
	}
	// No trade since: still nothing, whatever the book says.
	if c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("49950"), Bid: d("49800"), Ask: d("49850"), TradeThrough: true}); len(c.Fills) != 0 {
		t.Fatalf("filled with no trade: %+v", c.Fills)
	}
	// A trade at 49,895 went through 49,900: filled there, maker fee.
	c = e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("49960"), Bid: d("49950"), Ask: d("49970"), Low: d("49895"), High: d("49960"),
		TradeThrough: true, Traded: true})
	if len(c.Fills) != 1 {
		t.Fatalf("fills %+v", c.Fills)
	}
	f := c.Fills[0]
	eq(t, "price", f.Price, "49900")
	eq(t, "fee", f.Fee, "19.96") // 0.4% of 4,990
	if f.Liquidity != "maker" || f.OrderID != o.ID {
		t.Fatalf("fill %+v", f)
	}
}

// The last price is not a trade since the last quote: a limit between it
// and the new trades does not fill on it.
func TestTradeThroughIgnoresAnOlderLastPrice(t *testing.T) {
	e := newEngine(t, "0.004", "0.006")
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49900")})
	c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("49800"), Bid: d("49990"), Ask: d("50000"), Low: d("49950"), High: d("50000"),
		TradeThrough: true, Traded: true})
	if len(c.Fills) != 0 {
		t.Fatalf("filled on a last price older than the trades: %+v", c.Fills)
	}
}

// A stop that triggers on a market with a published book fills as a market
// order does: down the book, level by level, as a taker. 0.5 BTC sold
// against bids of 0.2 at 44,990.00 and 0.4 at 44,980.00 fills 0.2 and 0.3
// at those prices, not all 0.5 at the best bid.
func TestTriggeredStopWalksTheBook(t *testing.T) {
	e := newEngine(t, "0", "0.006")
	place(t, e, buy("0.5"))
	sl := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("0.5"), StopPrice: dp("45000")})
	c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("44995"), Bid: d("44990"), Ask: d("45000"),
		Bids: []paper.Level{lv("44990.00", "0.2"), lv("44980.00", "0.4")}, Asks: []paper.Level{lv("45000.00", "1")}})
	if len(c.Fills) != 2 {
		t.Fatalf("%d fills, want 2: %+v", len(c.Fills), c.Fills)
	}
	for i, want := range [][2]string{{"0.2", "44990"}, {"0.3", "44980"}} {
		if c.Fills[i].OrderID != sl.ID || c.Fills[i].Liquidity != "taker" {
			t.Errorf("fill %d: %+v", i, c.Fills[i])
		}
		eq(t, "fill quantity", c.Fills[i].Quantity, want[0])
		eq(t, "fill price", c.Fills[i].Price, want[1])
	}
	eq(t, "BTC left", balance(e, "BTC").Total(), "0")
	if bad := e.HoldsReconcile(); bad != nil {
		t.Fatal(bad)
	}
}

// A triggered BUY stop the funds cannot cover down the book is rejected
// with the reason, and nothing fills.
func TestTriggeredStopBeyondTheFundsIsRejected(t *testing.T) {
	e := newEngine(t, "0", "0")
	sl := place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.StopLoss, Quantity: d("1.9"), StopPrice: dp("51000")})
	c := e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("51000"), Bid: d("50990"), Ask: d("51000"),
		Asks: []paper.Level{lv("51000", "1"), lv("60000", "1")}, Bids: []paper.Level{lv("50990", "1")}})
	if len(c.Fills) != 0 {
		t.Fatalf("fills %+v", c.Fills)
	}
	var got domain.Order
	for _, o := range c.Orders {
		if o.ID == sl.ID {
			got = o
		}
	}
	if got.Status != domain.StatusRejected || got.RejectReason != paper.MsgInsufficient {
		t.Fatalf("stop %+v, want rejected for funds", got)
	}
	eq(t, "USD untouched", balance(e, "USD").Total(), "100000")
}
