package sandbox_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/exchangetest"
	"kestrel/exchange/sandbox"
	"kestrel/store/sqlite"
)

// prices is a hand-set market: bid and ask one cent either side of price.
type prices struct {
	mu  sync.Mutex
	p   map[string]decimal.Decimal
	at  time.Time                     // market time of the latest price
	rng map[string][2]decimal.Decimal // optional: the range covered since the previous price
}

// set moves the market one second on.
func (m *prices) set(sym, p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.p[sym] = d(p)
	m.at = m.at.Add(time.Second)
}

// Range implements sandbox.Ranger when a test sets rng.
func (m *prices) Range(sym string, from, to time.Time) (decimal.Decimal, decimal.Decimal, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rng[sym]
	return r[0], r[1], ok
}

func (m *prices) Ticker(sym string) (domain.Ticker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.p[sym]
	if !ok {
		return domain.Ticker{}, domain.Errorf(domain.ENotFound, "no price")
	}
	c := decimal.New(1, -2)
	return domain.Ticker{Symbol: sym, Price: p, Bid: p.Sub(c), Ask: p.Add(c), Time: m.at}, nil
}

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func dp(s string) *decimal.Decimal {
	v := d(s)
	return &v
}

type env struct {
	t      *testing.T
	ctx    context.Context
	path   string
	store  *sqlite.Store
	prices *prices
	sb     *sandbox.Sandbox
	opt    sandbox.Options
}

func newEnv(t *testing.T, mods ...func(*sandbox.Options)) *env {
	t.Helper()
	opt := sandbox.DefaultOptions(candles.Products())
	for _, m := range mods {
		m(&opt)
	}
	e := &env{t: t, ctx: context.Background(), path: filepath.Join(t.TempDir(), "k.db"), prices: &prices{p: map[string]decimal.Decimal{}, at: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}}
	e.prices.set("BTC-USD", "50000")
	e.prices.set("ETH-USD", "3000")
	opt.Clock = fixedClock{time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	e.opt = opt
	e.open()
	return e
}

func (e *env) open() {
	e.t.Helper()
	st, err := sqlite.Open(e.ctx, e.path)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { st.Close() })
	e.store = st
	sb, err := sandbox.New(e.ctx, st, e.prices, e.opt)
	if err != nil {
		e.t.Fatal(err)
	}
	e.sb = sb
}

func (e *env) balance(cur string) domain.Balance {
	e.t.Helper()
	bals, err := e.sb.Balances(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, b := range bals {
		if b.Currency == cur {
			return b
		}
	}
	return domain.Balance{Currency: cur}
}

func (e *env) place(req domain.OrderRequest) domain.Order {
	e.t.Helper()
	o, err := e.sb.PlaceOrder(e.ctx, req)
	if err != nil {
		e.t.Fatalf("PlaceOrder(%+v): %v", req, err)
	}
	return o
}

func (e *env) tick(sym, p string) {
	e.t.Helper()
	e.prices.set(sym, p)
	if err := e.sb.OnTick(e.ctx, domain.Tick{Symbol: sym, Price: d(p)}); err != nil {
		e.t.Fatal(err)
	}
}

func eq(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(d(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func wantErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	if domain.ErrorCode(err) != code || (msg != "" && domain.ErrorMessage(err) != msg) {
		t.Fatalf("error = %v, want %s %q", err, code, msg)
	}
}

func TestMarketBuyAndSellReconcile(t *testing.T) {
	e := newEnv(t)
	eq(t, "starting USD", e.balance("USD").Available, "100000")

	buy := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.5")})
	if buy.Status != domain.StatusFilled {
		t.Fatalf("market buy status %s", buy.Status)
	}
	eq(t, "buy fill price (ask)", *buy.AvgFillPrice, "50000.01")
	eq(t, "buy fee 0.6%", buy.Fee, "150.00003") // 25000.005 x 0.006
	eq(t, "USD after buy", e.balance("USD").Available, "74849.99497")
	eq(t, "BTC after buy", e.balance("BTC").Available, "0.5")

	e.prices.set("BTC-USD", "52000")
	sell := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("0.2")})
	eq(t, "sell fill price (bid)", *sell.AvgFillPrice, "51999.99")
	eq(t, "sell fee", sell.Fee, "62.399988") // 10399.998 x 0.006
	eq(t, "USD after sell", e.balance("USD").Available, "85187.592982")

	acct, _ := e.sb.Account(e.ctx)
	if len(acct.Positions) != 1 {
		t.Fatalf("positions %+v", acct.Positions)
	}
	p := acct.Positions[0]
	eq(t, "position qty", p.Quantity, "0.3")
	// Cost basis 25150.005030 (notional + fee); 2/5 of it sold for 10337.598012 net.
	eq(t, "realized", p.Realized, "277.596")
	eq(t, "avg price incl. fees", p.AvgPrice(), "50300.01006")

	// Every dollar is accounted for: start - buys - fees + sells.
	fills, _ := e.sb.Fills(e.ctx, domain.FillFilter{})
	usd := d("100000")
	for _, f := range fills {
		n := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			usd = usd.Sub(n).Sub(f.Fee)
		} else {
			usd = usd.Add(n).Sub(f.Fee)
		}
	}
	eq(t, "USD reconciled from fills", e.balance("USD").Available, usd.String())
}

func TestInsufficientBalanceStoresNothing(t *testing.T) {
	e := newEnv(t)
	_, err := e.sb.PlaceOrder(e.ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("2")})
	wantErr(t, err, domain.ERejected, "Insufficient balance for this trade")
	_, err = e.sb.PlaceOrder(e.ctx, domain.OrderRequest{Symbol: "ETH-USD", Side: domain.Sell, Type: domain.Market, Quantity: d("0.1")})
	wantErr(t, err, domain.ERejected, "Insufficient balance for this trade")
	_, err = e.sb.PlaceOrder(e.ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("3"), Price: dp("40000")})
	wantErr(t, err, domain.ERejected, "Insufficient balance for this trade")
	orders, _ := e.sb.Orders(e.ctx, domain.OrderFilter{})
	if len(orders) != 0 {
		t.Fatalf("refused orders were stored: %+v", orders)
	}
	eq(t, "USD untouched", e.balance("USD").Available, "100000")
}

func TestValidation(t *testing.T) {
	e := newEnv(t)
	cases := []domain.OrderRequest{
		{Symbol: "DOGE-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")},
		{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.000000001")},
		{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("100.001")},
		{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1")},
		{Symbol: "BTC-USD", Side: "HOLD", Type: domain.Market, Quantity: d("1")},
	}
	for _, c := range cases {
		if _, err := e.sb.PlaceOrder(e.ctx, c); domain.ErrorCode(err) != domain.EInvalid {
			t.Errorf("%+v: error %v, want invalid", c, err)
		}
	}
}

func TestLimitRestsHoldsAndFillsAsMaker(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("49000")})
	if o.Status != domain.StatusOpen {
		t.Fatalf("status %s, want open", o.Status)
	}
	eq(t, "USD hold (limit + maker fee)", e.balance("USD").Hold, "49196")
	eq(t, "USD available", e.balance("USD").Available, "50804")

	e.tick("BTC-USD", "49500") // above the limit: nothing
	if got, _ := e.sb.Order(e.ctx, o.ID); got.Status != domain.StatusOpen {
		t.Fatalf("filled above its limit: %+v", got)
	}
	e.tick("BTC-USD", "49000") // last at the limit, but the ask (a cent above) is not
	if got, _ := e.sb.Order(e.ctx, o.ID); got.Status != domain.StatusOpen {
		t.Fatalf("filled against last instead of the ask: %+v", got)
	}
	e.tick("BTC-USD", "48999.99") // the ask reaches the limit
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusFilled {
		t.Fatalf("status %s, want filled", got.Status)
	}
	eq(t, "fill price", *got.AvgFillPrice, "49000")
	eq(t, "maker fee 0.4%", got.Fee, "196")
	eq(t, "hold released", e.balance("USD").Hold, "0")
	eq(t, "USD", e.balance("USD").Available, "50804")
	fills, _ := e.sb.Fills(e.ctx, domain.FillFilter{})
	if len(fills) != 1 || fills[0].Liquidity != "maker" {
		t.Fatalf("fills %+v", fills)
	}
}

func TestMarketableLimitFillsAtTheBook(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("51000")})
	if o.Status != domain.StatusFilled {
		t.Fatalf("status %s", o.Status)
	}
	eq(t, "price improvement to the ask", *o.AvgFillPrice, "50000.01")
}

func TestLimitGapFillsAtBetterPrice(t *testing.T) {
	e := newEnv(t)
	e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("1"), Price: dp("51000")})
	eq(t, "BTC held", e.balance("BTC").Hold, "1")
	e.tick("BTC-USD", "51500")
	got, _ := e.sb.Order(e.ctx, o.ID)
	eq(t, "sell limit filled at the better bid", *got.AvgFillPrice, "51499.99")
	eq(t, "BTC", e.balance("BTC").Available.Add(e.balance("BTC").Hold), "0")
}

func TestCancelReleasesHold(t *testing.T) {
	e := newEnv(t)
	sub, stop := context.WithCancel(e.ctx)
	defer stop()
	ups := e.sb.Updates(sub)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("40000")})
	c, err := e.sb.CancelOrder(e.ctx, o.ID)
	if err != nil || c.Status != domain.StatusCancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	eq(t, "hold", e.balance("USD").Hold, "0")
	eq(t, "USD", e.balance("USD").Available, "100000")
	_, err = e.sb.CancelOrder(e.ctx, o.ID)
	wantErr(t, err, domain.EConflict, "Order cannot be cancelled in status cancelled")
	_, err = e.sb.CancelOrder(e.ctx, "nope")
	wantErr(t, err, domain.ENotFound, "")
	e.tick("BTC-USD", "39000") // a cancelled order is no longer armed
	if got, _ := e.sb.Order(e.ctx, o.ID); got.Status != domain.StatusCancelled {
		t.Fatalf("cancelled order changed: %+v", got)
	}
	var updates []domain.OrderStatus
	for len(ups) > 0 {
		updates = append(updates, (<-ups).Order.Status)
	}
	if len(updates) != 2 || updates[0] != domain.StatusOpen || updates[1] != domain.StatusCancelled {
		t.Fatalf("updates %v", updates)
	}
}

func TestModify(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("40000")})
	m, err := e.sb.ModifyOrder(e.ctx, o.ID, dp("2"), dp("45000"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "quantity", m.Quantity, "2")
	eq(t, "hold follows the change", e.balance("USD").Hold, "90360")
	e.tick("BTC-USD", "44000")
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusFilled {
		t.Fatalf("modified order did not fill at its new price: %+v", got)
	}
	_, err = e.sb.ModifyOrder(e.ctx, o.ID, dp("1"), nil)
	wantErr(t, err, domain.EConflict, "Only pending or open limit and stop orders can be modified (this one is filled)")
	_, err = e.sb.ModifyOrder(e.ctx, o.ID, nil, nil)
	wantErr(t, err, domain.EInvalid, "Please provide at least one field to modify")

	o2 := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	_, err = e.sb.ModifyOrder(e.ctx, o2.ID, dp("100"), nil)
	wantErr(t, err, domain.ERejected, "Insufficient balance for this trade")
	if got, _ := e.sb.Order(e.ctx, o2.ID); !got.Quantity.Equal(d("0.1")) {
		t.Fatalf("refused modification changed the order: %+v", got)
	}
}

func TestStopLoss(t *testing.T) {
	e := newEnv(t)
	e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	_, err := e.sb.PlaceOrder(e.ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("1"), StopPrice: dp("50500")})
	wantErr(t, err, domain.EInvalid, "Stop price must be below the current price for a SELL stop-loss")

	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("1"), StopPrice: dp("48000")})
	if o.Status != domain.StatusOpen {
		t.Fatalf("status %s", o.Status)
	}
	e.tick("BTC-USD", "48500")
	e.tick("BTC-USD", "47900")
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusFilled {
		t.Fatalf("stop not triggered: %+v", got)
	}
	eq(t, "stop fills at the bid", *got.AvgFillPrice, "47899.99")
	eq(t, "taker fee", got.Fee, "287.39994")
	fills, _ := e.sb.Fills(e.ctx, domain.FillFilter{})
	if fills[0].Liquidity != "taker" {
		t.Fatalf("stop fill liquidity %s", fills[0].Liquidity)
	}
}

func TestBuyStopWithoutFundsIsRejectedOnTrigger(t *testing.T) {
	e := newEnv(t)
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.StopLoss, Quantity: d("1.5"), StopPrice: dp("55000")})
	e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	e.tick("BTC-USD", "55000")
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusRejected || got.RejectReason != "Insufficient balance for this trade" {
		t.Fatalf("got %+v", got)
	}
}

func TestClientOrderIDIsIdempotent(t *testing.T) {
	e := newEnv(t)
	req := domain.OrderRequest{ClientOrderID: "abc-1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")}
	a := e.place(req)
	b := e.place(req)
	if a.ID != b.ID {
		t.Fatalf("second placement made a new order %s != %s", a.ID, b.ID)
	}
	eq(t, "BTC bought once", e.balance("BTC").Available, "0.1")
}

func TestPartialFills(t *testing.T) {
	e := newEnv(t, func(o *sandbox.Options) { o.MaxFillPerTick = d("0.4") })
	o := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp("49000")})
	e.tick("BTC-USD", "48900")
	got, _ := e.sb.Order(e.ctx, o.ID)
	if got.Status != domain.StatusOpen || !got.FilledQuantity.Equal(d("0.4")) {
		t.Fatalf("after one tick: %+v", got)
	}
	// Cancelling now releases only the unfilled part's hold.
	e.tick("BTC-USD", "48900")
	if _, err := e.sb.CancelOrder(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	eq(t, "hold", e.balance("USD").Hold, "0")
	eq(t, "BTC", e.balance("BTC").Available, "0.8")
	// 0.8 at the ask (48,900.01) plus 0.4% maker fee spent
	eq(t, "USD", e.balance("USD").Available, "60723.511968")
}

func TestRestartKeepsEverythingArmed(t *testing.T) {
	e := newEnv(t)
	e.place(domain.OrderRequest{Symbol: "ETH-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("2")})
	lim := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.5"), Price: dp("45000")})
	stop := e.place(domain.OrderRequest{Symbol: "ETH-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("2"), StopPrice: dp("2500")})
	before := []domain.Balance{e.balance("USD"), e.balance("ETH")}

	e.store.Close()
	e.open()
	after := []domain.Balance{e.balance("USD"), e.balance("ETH")}
	for i := range before {
		if !before[i].Available.Equal(after[i].Available) || !before[i].Hold.Equal(after[i].Hold) {
			t.Fatalf("balance changed across restart: %+v -> %+v", before[i], after[i])
		}
	}
	e.tick("BTC-USD", "44000")
	e.tick("ETH-USD", "2400")
	for _, id := range []string{lim.ID, stop.ID} {
		if got, _ := e.sb.Order(e.ctx, id); got.Status != domain.StatusFilled {
			t.Errorf("order %s not armed after restart: %+v", id, got)
		}
	}
}

func TestManyOrdersCrossInPriceOrder(t *testing.T) {
	e := newEnv(t, func(o *sandbox.Options) { o.StartingUSD = d("10000000") })
	for _, p := range []string{"49000", "48000", "49500", "47000"} {
		e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("1"), Price: dp(p)})
	}
	e.tick("BTC-USD", "48500") // crosses 49500 and 49000 only
	open, _ := e.sb.Orders(e.ctx, domain.OrderFilter{Status: domain.StatusOpen})
	if len(open) != 2 {
		t.Fatalf("open orders %d, want 2", len(open))
	}
	for _, o := range open {
		if o.Price.GreaterThan(d("48500")) {
			t.Errorf("order at %s should have filled", o.Price)
		}
	}
}

// The contract, with its faults on the journal: a commit whose answer is
// lost (timeout) or that is refused (server error); the sandbox answers
// both 503 and its caller retries with the client order id.
func TestExchangeContract(t *testing.T) {
	exchangetest.Run(t, func(t *testing.T) exchangetest.Harness {
		e := newEnv(t)
		j := &journalFaults{LedgerStore: e.store}
		sb, err := sandbox.New(e.ctx, j, e.prices, e.opt)
		if err != nil {
			t.Fatal(err)
		}
		e.sb = sb
		return exchangetest.Harness{Exchange: e.sb, Move: func(t *testing.T, sym, p string) {
			e.t = t
			e.tick(sym, p)
		}, Faults: &exchangetest.Faults{FailNext: j.failNext, Armed: j.armed}}
	})
}

// A trailing stop's high-water mark is journaled as it moves: after a
// restart it trails on from the mark, not from the price it restarts at,
// and triggers on the way down from the high seen before the restart.
func TestTrailingStopSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	e.tick("BTC-USD", "50000")
	ts := e.place(domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.TrailingStop, Quantity: d("1"),
		Trail: &domain.Trail{Percent: dp("2")}})
	e.tick("BTC-USD", "52000")

	e.store.Close()
	e.open()
	got, _ := e.sb.Order(e.ctx, ts.ID)
	if got.Trail == nil || got.Trail.Extreme == nil || !got.Trail.Extreme.Equal(d("52000")) || !got.StopPrice.Equal(d("50960")) || !got.Trail.Percent.Equal(d("2")) {
		t.Fatalf("after restart: %+v trail %+v", got, got.Trail)
	}
	e.tick("BTC-USD", "51500") // below the high: the stop stays at 50,960
	if got, _ := e.sb.Order(e.ctx, ts.ID); !got.StopPrice.Equal(d("50960")) || got.Status != domain.StatusOpen {
		t.Fatalf("stop moved down after restart: %+v", got)
	}
	e.tick("BTC-USD", "50900")
	if got, _ := e.sb.Order(e.ctx, ts.ID); got.Status != domain.StatusFilled {
		t.Fatalf("did not trigger below 50,960 after restart: %+v", got)
	}
}
