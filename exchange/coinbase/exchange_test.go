package coinbase_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
	"kestrel/exchange/exchangetest"
)

var ctx = context.Background()

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func dp(s string) *decimal.Decimal {
	v := d(s)
	return &v
}

// rig is the adapter against a fresh fake, with the client's waits recorded
// instead of slept (so no test depends on the wall clock).
type rig struct {
	fake   *coinbasefake.Fake
	srv    *httptest.Server
	x      *coinbase.Exchange
	key    coinbase.Key
	mu     sync.Mutex
	sleeps []time.Duration
}

func (r *rig) slept() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.sleeps...)
}

func newRig(t testing.TB, timeout time.Duration) *rig {
	return newRigKey(t, timeout, coinbasefake.ECDSA)
}

// newRigKey is the rig with a CDP key of kind, issued by the fake.
func newRigKey(t testing.TB, timeout time.Duration, kind coinbasefake.KeyKind) *rig {
	t.Helper()
	creds, err := coinbasefake.NewKey(kind, "organizations/kestrel-test/apiKeys/contract")
	if err != nil {
		t.Fatal(err)
	}
	// The adapter reads the key the way Settings hands it over: name and secret
	// (a PEM with its line breaks as "\n" escapes, as the key file's JSON has it).
	key, err := coinbase.ParseKey(creds.Name, strings.ReplaceAll(creds.Secret, "\n", `\n`))
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{key: key, fake: coinbasefake.New(creds.Name, creds.Public)}
	r.fake.Deposit("USD", "100000")
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		r.fake.SetPrice(sym, p)
	}
	r.srv = httptest.NewServer(r.fake.Handler())
	t.Cleanup(r.srv.Close)
	c, err := coinbase.NewClient(coinbase.ClientConfig{BaseURL: r.srv.URL, Key: key, Timeout: timeout, Retries: 3, RateLimit: 0,
		Sleep: func(ctx context.Context, dur time.Duration) error {
			r.mu.Lock()
			r.sleeps = append(r.sleeps, dur)
			r.mu.Unlock()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	r.x = coinbase.New(coinbase.Options{Client: c})
	return r
}

func TestContract(t *testing.T) {
	exchangetest.Run(t, func(t *testing.T) exchangetest.Harness {
		// An answer that never comes costs the attempt's timeout: short here.
		r := newRig(t, time.Second)
		return exchangetest.Harness{Exchange: r.x, Move: func(t *testing.T, sym, price string) {
			r.fake.SetPrice(sym, price)
			if err := r.x.Sync(ctx); err != nil { // what the user channel or the poller does live
				t.Fatal(err)
			}
		}, Faults: &exchangetest.Faults{FailNext: r.failNext, Armed: r.fake.PendingFaults, SelfRetrying: true}}
	})
}

// contractRoutes are the requests each kind of contract fault hits.
var contractRoutes = map[exchangetest.Op]string{
	exchangetest.Create: "POST /orders", exchangetest.Cancel: "POST /orders/batch_cancel", exchangetest.Modify: "POST /orders/edit",
	exchangetest.Read: "GET /",
}

// failNext injects a contract fault into the fake: an answer that never
// comes after the work is done, a 429 with rate-limit headers, or a 503.
func (r *rig) failNext(op exchangetest.Op, f exchangetest.Fault) string {
	ft := coinbasefake.Fault{Match: contractRoutes[op], Times: 1}
	switch f {
	case exchangetest.Timeout:
		ft.Hang = true
	case exchangetest.RateLimited:
		ft.Status = 429
	case exchangetest.ServerError:
		ft.Status = 503
	}
	r.fake.Inject(ft)
	return ""
}

func count(reqs []string, route string) int {
	n := 0
	for _, r := range reqs {
		if r == route {
			n++
		}
	}
	return n
}

// A create whose answer never arrives (the order was made) is looked up
// by its client order id and not sent again: exactly one order.
func TestTimeoutOnCreateMakesOneOrder(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Hang: true})
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: "t-1", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != domain.StatusFilled || o.ClientOrderID != "t-1" {
		t.Fatalf("order %+v", o)
	}
	reqs := r.fake.Requests()
	if n := r.fake.OrderCount(); n != 1 {
		t.Fatalf("%d orders at Coinbase, want 1", n)
	}
	if count(reqs, "POST /orders") != 1 || count(reqs, "GET /orders/historical/batch") == 0 {
		t.Fatalf("requests %v: want one create and a lookup", reqs)
	}
	// The trader retries the same request: still one order.
	again, err := r.x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: "t-1", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")})
	if err != nil || again.ID != o.ID || r.fake.OrderCount() != 1 {
		t.Fatalf("retry: %+v %v, %d orders", again, err, r.fake.OrderCount())
	}
}

// A 5xx on create (nothing made) is looked up, found absent, and sent again
// with the same client order id.
func TestServerErrorOnCreateRetriesOnce(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Status: 503})
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: "t-2", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")})
	if err != nil || o.Status != domain.StatusOpen {
		t.Fatalf("%+v %v", o, err)
	}
	if reqs := r.fake.Requests(); count(reqs, "POST /orders") != 2 || r.fake.OrderCount() != 1 {
		t.Fatalf("requests %v, orders %d", reqs, r.fake.OrderCount())
	}
}

// Even without the adapter's memory (a restart), the same client order id
// makes no second order: Coinbase answers it with the first.
func TestClientOrderIDSurvivesRestart(t *testing.T) {
	r := newRig(t, 5*time.Second)
	req := domain.OrderRequest{ClientOrderID: "t-3", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")}
	a, err := r.x.PlaceOrder(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := coinbase.NewClient(coinbase.ClientConfig{BaseURL: r.srv.URL, Key: r.key})
	fresh := coinbase.New(coinbase.Options{Client: c})
	b, err := fresh.PlaceOrder(ctx, req)
	if err != nil || b.ID != a.ID || r.fake.OrderCount() != 1 {
		t.Fatalf("after restart: %+v %v, %d orders", b, err, r.fake.OrderCount())
	}
	got, err := fresh.OrderByClientID(ctx, "u1", "t-3")
	if err != nil || got.ID != a.ID {
		t.Fatalf("lookup by client id after restart: %+v %v", got, err)
	}
}

// A 429 with x-ratelimit-* headers makes the client wait for the reset
// before the next request, then succeed.
func TestRateLimitHeadersAreRespected(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.Inject(coinbasefake.Fault{Match: "GET /accounts", Times: 1, Status: 429, ResetSeconds: 7})
	bals, err := r.x.Balances(ctx)
	if err != nil || len(bals) == 0 {
		t.Fatalf("%+v %v", bals, err)
	}
	waited := time.Duration(0)
	for _, s := range r.slept() {
		waited = max(waited, s)
	}
	if waited < 6*time.Second || waited > 7*time.Second {
		t.Fatalf("longest wait %s, want the 7 s reset the server gave", waited)
	}
	if n := count(r.fake.Requests(), "GET /accounts"); n != 2 {
		t.Fatalf("%d account requests, want 2", n)
	}
}

// 5xx answers to reads are retried with growing, jittered waits; when they
// never stop the error says Coinbase is unavailable.
func TestServerErrorsBackOffThenGiveUp(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.Inject(coinbasefake.Fault{Match: "GET /accounts", Times: 2, Status: 500})
	if _, err := r.x.Balances(ctx); err != nil {
		t.Fatal(err)
	}
	if w := r.slept(); len(w) < 2 {
		t.Fatalf("waits %v, want a backoff before each retry", w)
	}
	r.fake.Inject(coinbasefake.Fault{Match: "GET /accounts", Times: 10, Status: 502})
	_, err := r.x.Balances(ctx)
	if domain.ErrorCode(err) != domain.EUnavailable || !strings.Contains(domain.ErrorMessage(err), "502") {
		t.Fatalf("error %v", err)
	}
}

// An order Coinbase refuses (HTTP 200, success false) is a rejection that
// carries Coinbase's reason.
func TestOrderLevelFailureIsARejection(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Reject: "INVALID_LIMIT_PRICE_POST_ONLY"})
	_, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")})
	if domain.ErrorCode(err) != domain.ERejected || !strings.Contains(domain.ErrorMessage(err), "INVALID_LIMIT_PRICE_POST_ONLY") {
		t.Fatalf("error %v", err)
	}
	if r.fake.OrderCount() != 0 {
		t.Fatal("a refused order exists")
	}
}

// A key the exchange does not know is refused with Coinbase's answer.
func TestWrongKeyIsRefused(t *testing.T) {
	r := newRig(t, 5*time.Second)
	creds, _ := coinbasefake.NewKey(coinbasefake.ECDSA, r.key.Name)
	other, _ := coinbase.ParseKey(creds.Name, creds.Secret)
	c, _ := coinbase.NewClient(coinbase.ClientConfig{BaseURL: r.srv.URL, Key: other})
	_, err := coinbase.New(coinbase.Options{Client: c}).Balances(ctx)
	if err == nil || !strings.Contains(domain.ErrorMessage(err), "refused the API key") || !strings.Contains(domain.ErrorMessage(err), "bad signature") {
		t.Fatalf("error %v", err)
	}
}

// Listings follow Coinbase's cursors to the end.
func TestListingsFollowCursors(t *testing.T) {
	r := newRig(t, 5*time.Second)
	old := coinbasefake.PageMax
	coinbasefake.PageMax = 2
	t.Cleanup(func() { coinbasefake.PageMax = old })
	for i := 0; i < 5; i++ {
		if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.001")}); err != nil {
			t.Fatal(err)
		}
	}
	os, err := r.x.Orders(ctx, domain.OrderFilter{})
	if err != nil || len(os) != 5 {
		t.Fatalf("orders %d %v, want 5", len(os), err)
	}
	fs, err := r.x.Fills(ctx, domain.FillFilter{Limit: 3, Offset: 1})
	if err != nil || len(fs) != 3 {
		t.Fatalf("fills %d %v, want 3", len(fs), err)
	}
	all, _ := r.x.Fills(ctx, domain.FillFilter{})
	if len(all) != 5 || all[1].ID != fs[0].ID {
		t.Fatalf("fills %d; offset 1 should start at the second newest", len(all))
	}
}

// Kestrel's ledger from the adapter's fills agrees with the fake's money to
// the cent: cash = start - cost basis held + realized P&L, and the position
// is what the account holds.
func TestLedgerMatchesExchange(t *testing.T) {
	r := newRig(t, 5*time.Second)
	trade := func(side domain.Side, qty string) {
		if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: side, Type: domain.Market, Quantity: d(qty)}); err != nil {
			t.Fatal(err)
		}
	}
	trade(domain.Buy, "0.1")
	r.fake.SetPrice("BTC-USD", "52000")
	trade(domain.Buy, "0.05")
	r.fake.SetPrice("BTC-USD", "51000.37")
	trade(domain.Sell, "0.08")
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("0.03"), Price: dp("53000")})
	if err != nil {
		t.Fatal(err)
	}
	r.fake.SetPrice("BTC-USD", "53000")
	if got, _ := r.x.Order(ctx, o.ID); got.Status != domain.StatusFilled {
		t.Fatalf("limit sell %+v", got)
	}
	acct, err := r.x.Account(ctx)
	if err != nil || len(acct.Positions) != 1 {
		t.Fatalf("account %+v %v", acct, err)
	}
	book := acct.Positions[0]
	usd, _ := r.fake.Balance("USD")
	btc, _ := r.fake.Balance("BTC")
	if !book.Quantity.Equal(btc) || !book.Quantity.Equal(d("0.04")) {
		t.Fatalf("position %s, exchange holds %s", book.Quantity, btc)
	}
	if want := d("100000").Sub(book.Cost).Add(book.Realized); !want.Round(2).Equal(usd.Round(2)) {
		t.Fatalf("cash %s at the exchange, ledger says %s (cost %s realized %s)", usd, want, book.Cost, book.Realized)
	}
	var fees decimal.Decimal
	for _, f := range r.fake.Fills() {
		fees = fees.Add(d(f.Commission))
	}
	var ours decimal.Decimal
	fills, _ := r.x.Fills(ctx, domain.FillFilter{})
	for _, f := range fills {
		ours = ours.Add(f.Fee)
	}
	if !fees.Equal(ours) || len(fills) != 4 {
		t.Fatalf("fees %s at the exchange, %s in Kestrel (%d fills)", fees, ours, len(fills))
	}
}

// A stop-loss goes out as a stop-limit with its protective limit the
// documented offset below the stop, on the price grid.
func TestStopLossIsStopLimitWithOffset(t *testing.T) {
	r := newRig(t, 5*time.Second)
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("100")}); err != nil {
		t.Fatal(err)
	}
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "ADA-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: d("100"), StopPrice: dp("0.4321")})
	if err != nil || o.Type != domain.StopLoss || !o.StopPrice.Equal(d("0.4321")) {
		t.Fatalf("%+v %v", o, err)
	}
	limit, dir := coinbase.StopLimitFor(d("0.0001"), domain.Sell, d("0.4321"), coinbase.DefaultStopLimitOffset)
	if !limit.Equal(d("0.4277")) || dir != "STOP_DIRECTION_STOP_DOWN" { // 0.4321 * 0.99 = 0.427779, down to the grid
		t.Fatalf("limit %s %s", limit, dir)
	}
	r.fake.RefuseStopEdits() // where Coinbase edits limits only, the stop is replaced, never cancelled first
	_, err = r.x.ModifyOrder(ctx, o.ID, nil, dp("0.43"))
	if domain.ErrorCode(err) != domain.EConflict || !strings.Contains(domain.ErrorMessage(err), "never cancels a stop first") {
		t.Fatalf("modify a stop that holds the whole position: %v", err)
	}
}

// An edit whose answer is lost and whose look fails too is sent again;
// Coinbase refuses the second as equal to the order (the first landed), and
// the trader is told the edit was made, not that Coinbase refused it.
func TestEditThatLandedIsNotRefused(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	if err != nil {
		t.Fatal(err)
	}
	read := "GET /orders/historical/" + o.ID
	r.fake.Inject(
		coinbasefake.Fault{Match: read, Times: 1}, // the read before the edit: answered
		coinbasefake.Fault{Match: "POST /orders/edit", Times: 1, Hang: true},
		coinbasefake.Fault{Match: read, Times: 4, Status: 503}, // the look after it: every try of the client fails
	)
	m, err := r.x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000"))
	if err != nil || !m.Quantity.Equal(d("0.2")) || !m.Price.Equal(d("45000")) {
		t.Fatalf("modify: %+v %v, want 0.2 at 45000", m, err)
	}
	if n := r.fake.PendingFaults(); n != 0 {
		t.Fatalf("%d faults not met: the case did not happen", n)
	}
	if n := count(r.fake.Requests(), "POST /orders/edit"); n != 2 {
		t.Fatalf("%d edits sent, want 2 (the lost one and the one refused as equal)", n)
	}
}

func TestCandlesArePagedWithin350(t *testing.T) {
	r := newRig(t, 5*time.Second)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var cs []domain.Candle
	for i := 0; i < 800; i++ { // a rising staircase: each candle is identifiable by its index
		p := decimal.NewFromInt(int64(40000 + i))
		cs = append(cs, domain.Candle{Time: start.Add(time.Duration(i) * time.Minute), Open: p, High: p.Add(d("5")), Low: p.Sub(d("5")), Close: p.Add(d("1")), Volume: d("0.5")})
	}
	r.fake.SetCandles("BTC-USD", cs)
	got, err := r.x.Candles(ctx, "BTC-USD", domain.OneMinute, start, start.Add(800*time.Minute))
	if err != nil || len(got) != 800 {
		t.Fatalf("%d candles %v", len(got), err)
	}
	for i, c := range got {
		if !c.Time.Equal(cs[i].Time) || !c.Close.Equal(cs[i].Close) {
			t.Fatalf("candle %d: %+v, want %+v", i, c, cs[i])
		}
	}
	if n := count(r.fake.Requests(), "GET /market/products/BTC-USD/candles"); n != 3 {
		t.Fatalf("%d candle requests, want 3 (350 + 350 + 100)", n)
	}
}

// memKV is the key-value store the app gives the adapter, in memory.
type memKV struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *memKV) GetValue(_ context.Context, key string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	if !ok {
		return "", domain.Errorf(domain.ENotFound, "no %s", key)
	}
	return v, nil
}

func (k *memKV) PutValue(_ context.Context, key, value string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[key] = value
	return nil
}

// What Coinbase does not keep (user, strategy, protective group) survives a
// restart through the store, and a client id is found without listing orders.
func TestOrderDetailsSurviveRestart(t *testing.T) {
	r := newRig(t, 5*time.Second)
	kv := &memKV{m: map[string]string{}}
	c, _ := coinbase.NewClient(coinbase.ClientConfig{BaseURL: r.srv.URL, Key: r.key})
	x := coinbase.New(coinbase.Options{Client: c, Meta: kv})
	req := domain.OrderRequest{ClientOrderID: "s-1", UserID: "u9", Strategy: "technical_strategy", GroupID: "g1", Symbol: "BTC-USD",
		Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")}
	a, err := x.PlaceOrder(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	fresh := coinbase.New(coinbase.Options{Client: c, Meta: kv})
	before := count(r.fake.Requests(), "GET /orders/historical/batch")
	got, err := fresh.OrderByClientID(ctx, "u9", "s-1")
	if err != nil || got.ID != a.ID || got.Strategy != "technical_strategy" || got.GroupID != "g1" || got.UserID != "u9" || got.ClientOrderID != "s-1" {
		t.Fatalf("after restart: %+v %v", got, err)
	}
	if count(r.fake.Requests(), "GET /orders/historical/batch") != before {
		t.Fatal("listed orders to find a client id the store knows")
	}
}

// When every create fails with the outcome unknown and the order never
// appears, the trader is told it may or may not have been placed (504, not a
// 503 that promises it was not) and to retry with the same client order id.
func TestUnknownOutcomeThatNeverLands(t *testing.T) {
	r := newRig(t, 5*time.Second)
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 10, Status: 503})
	_, err := r.x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: "lost", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.01")})
	if domain.ErrorCode(err) != domain.EUnknownOutcome || !strings.Contains(domain.ErrorMessage(err), "same client order id") {
		t.Fatalf("error %v", err)
	}
	reqs := r.fake.Requests()
	if r.fake.OrderCount() != 0 || count(reqs, "POST /orders") != 4 || count(reqs, "GET /orders/historical/batch") != 4 {
		t.Fatalf("%d orders; requests %v", r.fake.OrderCount(), reqs)
	}
}
