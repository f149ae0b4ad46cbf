package coinbase

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// The adapter decodes Coinbase's documented sample payloads (testdata, the
// same files the fake's wire types are checked against) into what Kestrel
// means by them.

func sample(t *testing.T, name string, into any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func eq(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(decimal.RequireFromString(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func TestGoldenFills(t *testing.T) {
	var p FillsPage
	sample(t, "list_fills.json", &p)
	if len(p.Fills) != 1 || p.Cursor != "789100" {
		t.Fatalf("page %+v", p)
	}
	f := toFill(p.Fills[0], meta{Strategy: "technical_strategy"})
	if f.ID != "22222-2222222-22222222" || f.OrderID != "0000-000000-000000" || f.Symbol != "BTC-USD" || f.Strategy != "technical_strategy" ||
		!f.Time.Equal(time.Date(2021, 5, 31, 9, 59, 59, 0, time.UTC)) {
		t.Fatalf("fill %+v", f)
	}
	eq(t, "quantity", f.Quantity, "0.001")
	eq(t, "price", f.Price, "10000")
	eq(t, "fee", f.Fee, "1.25")
	// The same documented fill, had the order been placed with quote_size:
	// its size is dollars, and $500 at 50,000 is 0.01 BTC.
	q := p.Fills[0]
	q.SizeInQuote, q.Size, q.Price = true, "500", "50000"
	eq(t, "quote-sized quantity", toFill(q, meta{}).Quantity, "0.01")
}

func TestGoldenOrders(t *testing.T) {
	var env OrderEnvelope
	sample(t, "get_order.json", &env)
	var page OrdersPage
	sample(t, "list_orders.json", &page)
	if len(page.Orders) != 1 || !page.HasNext || page.Cursor != "789100" {
		t.Fatalf("page %+v", page)
	}
	o := env.Order
	// The sample shows every configuration at once; one at a time, each is read.
	oc := o.OrderConfiguration
	for _, c := range []struct {
		name string
		cfg  OrderConfiguration
		typ  domain.OrderType
		qty  string
	}{
		{"market", OrderConfiguration{MarketIOC: &MarketIOC{BaseSize: oc.MarketIOC.BaseSize}}, domain.Market, "0.001"},
		{"limit", OrderConfiguration{LimitGTC: oc.LimitGTC}, domain.Limit, "0.001"},
		{"stop-limit", OrderConfiguration{StopLimitGTC: oc.StopLimitGTC}, domain.StopLoss, "0.001"},
	} {
		o.OrderConfiguration = c.cfg
		got := toOrder(o, meta{})
		if got.ID != "0000-000000-000000" || got.ClientOrderID != "11111-000000-000000" || got.Type != c.typ || got.Status != domain.StatusOpen {
			t.Fatalf("%s: %+v", c.name, got)
		}
		eq(t, c.name+" quantity", got.Quantity, c.qty)
		eq(t, c.name+" filled", got.FilledQuantity, "0.001")
		eq(t, c.name+" fee", got.Fee, "5.00")
	}
	// Sized in quote: $10 at the sample's limit of 10,000 is 0.001 BTC; a
	// filled quote-sized market order is what it filled (filled_size is base).
	o.OrderConfiguration = OrderConfiguration{LimitGTC: &LimitGTC{QuoteSize: oc.MarketIOC.QuoteSize, LimitPrice: oc.LimitGTC.LimitPrice}}
	o.SizeInQuote = true
	eq(t, "quote-sized limit", toOrder(o, meta{}).Quantity, "0.001")
	o.OrderConfiguration = OrderConfiguration{MarketIOC: &MarketIOC{QuoteSize: oc.MarketIOC.QuoteSize}}
	o.Status = "FILLED"
	eq(t, "quote-sized market", toOrder(o, meta{}).Quantity, "0.001")
}

func TestGoldenAccountsProductsMarket(t *testing.T) {
	var accts AccountsPage
	sample(t, "list_accounts.json", &accts)
	if len(accts.Accounts) != 1 || accts.Accounts[0].Currency != "BTC" || accts.Accounts[0].AvailableBalance.Value != "1.23" || accts.Accounts[0].Hold.Value != "1.23" {
		t.Fatalf("accounts %+v", accts)
	}
	var prods ProductsPage
	sample(t, "list_products.json", &prods)
	var one Product
	sample(t, "get_product.json", &one)
	for _, p := range []Product{prods.Products[0], one} {
		dp := toProduct(p)
		if dp.Symbol != "BTC-USD" || dp.BaseCurrency != "BTC" || dp.QuoteCurrency != "USD" {
			t.Fatalf("product %+v", dp)
		}
		eq(t, "price increment (quote_increment when absent)", dp.PriceIncrement, "0.00000001")
		eq(t, "size increment", dp.SizeIncrement, "0.00000001")
		eq(t, "min size", dp.MinSize, "0.00000001")
	}
	var candles CandlesPage
	sample(t, "get_candles.json", &candles)
	if len(candles.Candles) != 1 || candles.Candles[0].Start != "1639508050" || candles.Candles[0].Close != "140.21" {
		t.Fatalf("candles %+v", candles)
	}
	var tp TickerPage
	sample(t, "market_trades.json", &tp)
	if len(tp.Trades) != 1 || tp.Trades[0].Price != "140.91" || tp.BestBid != "291.13" || tp.BestAsk != "292.40" {
		t.Fatalf("ticker %+v", tp)
	}
	var create CreateOrderResponse
	sample(t, "create_order.json", &create)
	if !create.Success || create.SuccessResponse.OrderID != "11111-00000-000000" {
		t.Fatalf("create %+v", create)
	}
	var cancel CancelResponse
	sample(t, "cancel_orders.json", &cancel)
	if len(cancel.Results) != 1 || !cancel.Results[0].Success || cancel.Results[0].OrderID != "0000-00000" {
		t.Fatalf("cancel %+v", cancel)
	}
}

// The WebSocket samples: the envelope's sequence number, the user channel's
// order id (the adapter reads the order back by REST), the ticker that
// becomes a tick and the 24 h statistics, trades and the live candle.
func TestGoldenWebSocket(t *testing.T) {
	var m WSMessage
	sample(t, "ws_user.json", &m)
	var ev WSUserEvent
	if m.Channel != "user" || m.SequenceNum != 0 || json.Unmarshal(m.Events[0], &ev) != nil || ev.Type != "snapshot" || ev.Orders[0].OrderID != "YYY" {
		t.Fatalf("user %+v %+v", m, ev)
	}
	f := NewFeed(nil, []string{"BTC-USD", "ETH-USD"}, StreamConfig{})
	for _, name := range []string{"ws_ticker.json", "ws_candles.json", "ws_heartbeats.json"} {
		var m WSMessage
		sample(t, name, &m)
		f.handle(m)
	}
	tk, err := f.Ticker("BTC-USD")
	if err != nil || !tk.Time.Equal(time.Date(2023, 2, 9, 20, 30, 37, 167359596, time.UTC)) {
		t.Fatalf("ticker %+v %v", tk, err)
	}
	eq(t, "price", tk.Price, "21932.98")
	eq(t, "bid", tk.Bid, "21931.98")
	eq(t, "ask", tk.Ask, "21933.98")
	st, _ := f.Stats("BTC-USD")
	eq(t, "high", st.High, "23011.18")
	eq(t, "low", st.Low, "21835.29")
	eq(t, "change %", st.ChangePercent, "-4.1578")
	f.mu.Lock()
	lc := f.live["ETH-USD"]
	f.mu.Unlock()
	if !lc.Time.Equal(time.Unix(1688998200, 0)) {
		t.Fatalf("live candle %+v", lc)
	}
	eq(t, "candle close", lc.Close, "1866.81")
	// The level2 sample is a snapshot of two bids: the book holds them best
	// first, and no asks.
	f.FollowBook()
	var l2 WSMessage
	sample(t, "ws_level2.json", &l2)
	f.handle(l2)
	bids, asks, ok := f.Book("BTC-USD", 0)
	if !ok || len(bids) != 2 || len(asks) != 0 {
		t.Fatalf("book %v bids %+v asks %+v", ok, bids, asks)
	}
	eq(t, "best bid", bids[0].Price, "21921.73")
	eq(t, "best bid size", bids[0].Size, "0.06317902")
	eq(t, "second bid", bids[1].Price, "21921.3")
	eq(t, "second bid size", bids[1].Size, "0.02")
	var trades WSMessage
	sample(t, "ws_market_trades.json", &trades)
	var te WSTradesEvent
	if json.Unmarshal(trades.Events[0], &te) != nil || te.Type != "snapshot" || !strings.EqualFold(te.Trades[0].Side, "buy") {
		t.Fatalf("trades %+v", te)
	}
}
