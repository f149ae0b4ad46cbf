// Package coinbasefake is a local Coinbase Advanced Trade exchange for tests
// and end-to-end runs. It is written from Coinbase's API reference, not
// from the adapter: its wire types are its own (wire.go, checked against
// the reference's sample payloads in exchange/coinbase/testdata), and it
// verifies each request's CDP JWT with its own code for both key kinds
// (auth.go: EdDSA or ES256 signature, kid, claims, uri, nonce). It serves
// the REST v3 endpoints with cursors, the public /market endpoints with no
// key, matches orders (base- or quote-sized) against prices the test sets,
// and injects faults (429 with rate-limit headers, 5xx, answers that never
// come, order-level rejections). The WebSocket lives in ws.go.
package coinbasefake

import (
	"crypto"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Fake is one Coinbase account with a market the test moves.
type Fake struct {
	KeyName string
	pub     crypto.PublicKey

	// Fees are Coinbase's entry-tier rates unless a test changes them first.
	TakerFee, MakerFee decimal.Decimal

	mu       sync.Mutex
	now      func() time.Time
	products map[string]Product
	price    map[string]decimal.Decimal
	accounts map[string]*account
	orders   []*order // oldest first
	byID     map[string]*order
	byClient map[string]*order
	creates  map[string]int // client_order_id -> create requests that carried it
	fills    []Fill         // oldest first
	candles  map[string][]domain.Candle
	day      map[string]*dayStats
	tape     []WSTrade                                        // executions not yet sent on market_trades
	l2       map[string]map[string]map[string]decimal.Decimal // product -> bid|offer -> price -> size
	nonces   map[string]bool
	faults   []Fault
	requests []Request // every request served, in order
	trades   int
	user     *userFeed
	// noStopEdits answers a stop-limit edit as Coinbase did before it
	// edited stops (ONLY_LIMIT_ORDER_EDITS_SUPPORTED).
	noStopEdits bool
}

// RefuseStopEdits makes the fake edit limit orders only, as Coinbase did
// before edits took stop-limit GTC orders' stop_price.
func (f *Fake) RefuseStopEdits() {
	f.mu.Lock()
	f.noStopEdits = true
	f.mu.Unlock()
}

type account struct {
	uuid            string
	available, hold decimal.Decimal
	currency        string
}

type order struct {
	Order
	size, limit, stop decimal.Decimal // size in base, or in quote when quote
	quote             bool            // sized in quote currency (quote_size)
	kind              string          // market, limit, stop_limit
	triggered         bool
	filled, value     decimal.Decimal // base filled, quote paid or received
	fees, hold        decimal.Decimal
	fills             int
	created           time.Time
}

// Fault is one injected failure: the next Times requests whose "METHOD
// /path" (path below /api/v3/brokerage) starts with Match get it.
type Fault struct {
	Match string
	Times int
	// Status answers with this HTTP status (429 carries rate-limit headers
	// that say nothing remains and the window resets in ResetSeconds).
	Status       int
	ResetSeconds int
	// Hang carries the request out and then never answers (until the client
	// gives up): the outcome is unknown to the client.
	Hang bool
	// Reset carries the request out and then closes the connection without
	// an answer (a connection reset after sending): the outcome is unknown.
	Reset bool
	// Reject answers an order with success:false and this error code
	// (e.g. INSUFFICIENT_FUND, INVALID_LIMIT_PRICE_POST_ONLY), an edit
	// with this edit_failure_reason.
	Reject string
}

// Request is one request the fake served: its route ("METHOD /path" below
// /api/v3/brokerage, or "WS subscribe channel") and whether it carried a
// key (an Authorization header, or a jwt in the subscribe message).
type Request struct {
	Route string
	Keyed bool
}

// New returns a fake that accepts JWTs signed by the key named keyName
// whose public half is pub (ed25519.PublicKey or *ecdsa.PublicKey).
func New(keyName string, pub crypto.PublicKey) *Fake {
	f := &Fake{KeyName: keyName, pub: pub, TakerFee: decimal.RequireFromString("0.006"), MakerFee: decimal.RequireFromString("0.004"),
		now: time.Now, products: map[string]Product{}, price: map[string]decimal.Decimal{}, accounts: map[string]*account{},
		byID: map[string]*order{}, byClient: map[string]*order{}, creates: map[string]int{}, candles: map[string][]domain.Candle{}, day: map[string]*dayStats{}, nonces: map[string]bool{}}
	f.user = newUserFeed(f)
	for _, p := range []struct{ sym, priceInc, baseInc, min string }{
		{"BTC-USD", "0.01", "0.00000001", "0.00000001"}, {"ETH-USD", "0.01", "0.00000001", "0.00000001"},
		{"SOL-USD", "0.01", "0.00000001", "0.00000001"}, {"ADA-USD", "0.0001", "0.00000001", "0.00000001"},
	} {
		f.products[p.sym] = Product{ProductID: p.sym, PriceIncrement: p.priceInc, QuoteIncrement: p.priceInc, BaseIncrement: p.baseInc,
			BaseMinSize: p.min, BaseMaxSize: "3400", QuoteMinSize: "1", QuoteMaxSize: "150000000", Status: "online", ProductType: "SPOT",
			BaseCurrencyID: domain.Base(p.sym), QuoteCurrencyID: domain.Quote(p.sym), BaseDisplaySymbol: domain.Base(p.sym), QuoteDisplaySymbol: domain.Quote(p.sym),
			BaseName: domain.Base(p.sym), QuoteName: domain.Quote(p.sym)}
	}
	return f
}

// Deposit credits a currency's available balance.
func (f *Fake) Deposit(currency, amount string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.acct(currency)
	a.available = a.available.Add(decimal.RequireFromString(amount))
}

func (f *Fake) acct(cur string) *account {
	a, ok := f.accounts[cur]
	if !ok {
		a = &account{uuid: uuid.NewString(), currency: cur, available: decimal.Zero, hold: decimal.Zero}
		f.accounts[cur] = a
	}
	return a
}

// Inject queues faults.
func (f *Fake) Inject(fs ...Fault) {
	f.mu.Lock()
	f.faults = append(f.faults, fs...)
	f.mu.Unlock()
}

// PendingFaults counts the injected failures not met yet.
func (f *Fake) PendingFaults() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, ft := range f.faults {
		n += max(ft.Times, 0)
	}
	return n
}

// Requests lists the routes of the requests served so far ("METHOD /path").
func (f *Fake) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.requests))
	for i, r := range f.requests {
		out[i] = r.Route
	}
	return out
}

// RequestLog lists the requests served so far with whether each carried a key.
func (f *Fake) RequestLog() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// OrderCount is how many orders the account has (any status).
func (f *Fake) OrderCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.orders)
}

// Orders returns the account's orders as Coinbase would list them, oldest
// first: at most one per client_order_id, as Coinbase keeps them.
func (f *Fake) Orders() []Order {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Order, len(f.orders))
	for i, o := range f.orders {
		o.sync()
		out[i] = o.Order
	}
	return out
}

// Creates counts, by client_order_id, the create requests that carried
// it: more than one is a repeat that Coinbase answered with the order it
// already had instead of making another.
func (f *Fake) Creates() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]int, len(f.creates))
	for k, v := range f.creates {
		out[k] = v
	}
	return out
}

// Fills returns the account's fills, oldest first.
func (f *Fake) Fills() []Fill {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Fill(nil), f.fills...)
}

// Balance is a currency's available and hold.
func (f *Fake) Balance(cur string) (available, hold decimal.Decimal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.acct(cur)
	return a.available, a.hold
}

// SetCandles gives a product its candle history (ascending).
func (f *Fake) SetCandles(sym string, cs []domain.Candle) {
	f.mu.Lock()
	f.candles[sym] = cs
	f.mu.Unlock()
}

// SetPrice moves a product's market (bid = ask = last) and matches the
// resting orders against it; the changes go out on the user channel.
func (f *Fake) SetPrice(sym, price string) {
	f.mu.Lock()
	p := decimal.RequireFromString(price)
	f.price[sym] = p
	var changed []*order
	for _, o := range f.orders {
		if o.ProductID != sym || o.Status != "OPEN" {
			continue
		}
		if f.match(o, p) {
			changed = append(changed, o)
		}
	}
	events := f.userEvents(changed)
	st := f.day[sym]
	if st == nil {
		st = &dayStats{open: p, high: p, low: p, volume: decimal.Zero}
		f.day[sym] = st
	}
	st.high, st.low = decimal.Max(st.high, p), decimal.Min(st.low, p)
	tick := f.tickerEvent(sym, p, st)
	f.mu.Unlock()
	f.user.publish(events)
	f.user.market(sym, "ticker", WSTickerEvent{Type: "update", Tickers: []WSTicker{tick}})
	f.flushTape()
}

// flushTape sends the account's new executions on market_trades (the fake's
// market has no other traders).
func (f *Fake) flushTape() {
	f.mu.Lock()
	tape := f.tape
	f.tape = nil
	f.mu.Unlock()
	for _, t := range tape {
		f.user.market(t.ProductID, "market_trades", WSTradesEvent{Type: "update", Trades: []WSTrade{t}})
	}
}

// dayStats is a product's rolling day as the fake knows it (since its first price).
type dayStats struct{ open, high, low, volume decimal.Decimal }

func (f *Fake) tickerEvent(sym string, p decimal.Decimal, st *dayStats) WSTicker {
	pct := decimal.Zero
	if st.open.IsPositive() {
		pct = p.Sub(st.open).Div(st.open).Mul(decimal.NewFromInt(100))
	}
	return WSTicker{Type: "ticker", ProductID: sym, Price: p.String(), Volume24h: st.volume.String(), Low24h: st.low.String(), High24h: st.high.String(),
		PricePercentChg24h: pct.String(), BestBid: p.String(), BestAsk: p.String()}
}

// match fills or triggers a resting order at price p; callers hold mu.
func (f *Fake) match(o *order, p decimal.Decimal) bool {
	if o.kind == "stop_limit" && !o.triggered {
		down := o.OrderConfiguration.StopLimitGTC.StopDirection == "STOP_DIRECTION_STOP_DOWN"
		if (down && p.GreaterThan(o.stop)) || (!down && p.LessThan(o.stop)) {
			return false
		}
		o.triggered = true
		o.TriggerStatus = "STOP_TRIGGERED"
		if f.marketable(o, p) { // the limit behind the stop is crossed at once: taker
			f.execute(o, p, "TAKER")
		}
		return true
	}
	if (o.Side == "BUY" && p.LessThanOrEqual(o.limit)) || (o.Side == "SELL" && p.GreaterThanOrEqual(o.limit)) {
		f.execute(o, o.limit, "MAKER")
		return true
	}
	return false
}

func (f *Fake) marketable(o *order, p decimal.Decimal) bool {
	if o.Side == "BUY" {
		return p.LessThanOrEqual(o.limit)
	}
	return p.GreaterThanOrEqual(o.limit)
}

// execute fills what remains of o at price; callers hold mu and checked
// funds. A quote-sized order buys or sells base worth what remains of its
// quote size, on the product's base increment; its fill carries the quote
// amount as size with size_in_quote true, as Coinbase reports it.
func (f *Fake) execute(o *order, price decimal.Decimal, liquidity string) {
	qty := o.size.Sub(o.filled)
	if o.quote {
		inc := dec(f.products[o.ProductID].BaseIncrement)
		qty = o.size.Sub(o.value).Div(price).Div(inc).Floor().Mul(inc)
	}
	rate := f.TakerFee
	if liquidity == "MAKER" {
		rate = f.MakerFee
	}
	notional := qty.Mul(price)
	fee := notional.Mul(rate)
	base, quote := f.acct(domain.Base(o.ProductID)), f.acct(domain.Quote(o.ProductID))
	if o.Side == "BUY" {
		quote.hold = quote.hold.Sub(o.hold)
		quote.available = quote.available.Add(o.hold).Sub(notional).Sub(fee)
		base.available = base.available.Add(qty)
	} else {
		base.hold = base.hold.Sub(o.hold)
		base.available = base.available.Add(o.hold).Sub(qty)
		quote.available = quote.available.Add(notional).Sub(fee)
	}
	o.hold = decimal.Zero
	o.filled = o.filled.Add(qty)
	o.value = o.value.Add(notional)
	o.fees = o.fees.Add(fee)
	o.fills++
	now := f.now().UTC()
	f.trades++
	size := qty
	if o.quote {
		size = notional
	}
	f.fills = append(f.fills, Fill{EntryID: uuid.NewString(), TradeID: strconv.Itoa(f.trades), OrderID: o.OrderID, TradeTime: now.Format(time.RFC3339Nano),
		TradeType: "FILL", Price: price.String(), Size: size.String(), Commission: fee.String(), ProductID: o.ProductID,
		SequenceTimestamp: now.Format(time.RFC3339Nano), LiquidityIndicator: liquidity, SizeInQuote: o.quote, UserID: "fake-user", Side: o.Side})
	f.tape = append(f.tape, WSTrade{TradeID: strconv.Itoa(f.trades), ProductID: o.ProductID, Price: price.String(), Size: qty.String(),
		Side: o.Side, Time: now.Format(time.RFC3339Nano)})
	if st := f.day[o.ProductID]; st != nil {
		st.volume = st.volume.Add(qty)
	}
	o.Status = "FILLED"
	o.LastFillTime = now.Format(time.RFC3339Nano)
	o.sync()
}

// sync writes the order's figures into its wire form: filled_size in base,
// filled_value in quote, completion against the size in its own currency.
func (o *order) sync() {
	o.FilledSize = o.filled.String()
	o.FilledValue = o.value.String()
	o.TotalFees = o.fees.String()
	o.Fee = o.fees.String()
	o.OutstandingHold = o.hold.String()
	o.NumberOfFills = strconv.Itoa(o.fills)
	o.SizeInQuote = o.quote
	if o.filled.IsPositive() {
		o.AverageFilledPrice = o.value.Div(o.filled).String()
	} else {
		o.AverageFilledPrice = "0"
	}
	done := o.filled
	if o.quote {
		done = o.value
	}
	o.CompletionPercentage = done.Div(o.size).Mul(decimal.NewFromInt(100)).StringFixed(2)
	o.TotalValueAfterFees = o.value.Add(o.fees).String()
}

// leaves is what remains of the order, in the currency it was sized in.
func (o *order) leaves() decimal.Decimal {
	if o.quote {
		if o.Status == "OPEN" || o.Status == "PENDING" {
			return o.size.Sub(o.value)
		}
		return decimal.Zero
	}
	return o.size.Sub(o.filled)
}

// Handler serves the REST API under /api/v3/brokerage and the WebSocket at /ws.
func (f *Fake) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", f.user.serve)
	mux.HandleFunc("/api/v3/brokerage/", f.serve)
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiErr(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, APIError{Error: code, Message: msg, ErrorDetails: msg})
}

// authenticate checks the bearer JWT as Coinbase does.
func (f *Fake) authenticate(r *http.Request) error {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return fmt.Errorf("missing bearer token")
	}
	t, err := VerifyJWT(tok, f.pub)
	if err != nil {
		return err
	}
	if err := checkClaims(t, f.KeyName, r.Method+" "+r.Host+r.URL.Path, f.now().Unix()); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.nonces[t.Nonce] {
		return fmt.Errorf("nonce reused")
	}
	f.nonces[t.Nonce] = true
	return nil
}

// fault takes the first queued fault matching the request; callers hold mu.
func (f *Fake) fault(route string) (Fault, bool) {
	for i := range f.faults {
		if strings.HasPrefix(route, f.faults[i].Match) && f.faults[i].Times > 0 {
			f.faults[i].Times--
			return f.faults[i], true
		}
	}
	return Fault{}, false
}

// publicPrefix is where Coinbase serves market data that needs no key.
const publicPrefix = "/market/"

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v3/brokerage")
	public := strings.HasPrefix(path, publicPrefix)
	if !public {
		if err := f.authenticate(r); err != nil {
			apiErr(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Unauthorized: "+err.Error())
			return
		}
	}
	route := r.Method + " " + path
	f.mu.Lock()
	f.requests = append(f.requests, Request{Route: route, Keyed: r.Header.Get("Authorization") != ""})
	ft, faulty := f.fault(route)
	f.mu.Unlock()
	if faulty && ft.Status != 0 {
		if ft.Status == http.StatusTooManyRequests {
			w.Header().Set("x-ratelimit-limit", "30")
			w.Header().Set("x-ratelimit-remaining", "0")
			w.Header().Set("x-ratelimit-reset", strconv.Itoa(ft.ResetSeconds))
			apiErr(w, ft.Status, "RATE_LIMIT_EXCEEDED", "Too many requests")
			return
		}
		apiErr(w, ft.Status, "INTERNAL", "internal error")
		return
	}
	rec := &recorder{header: http.Header{}}
	if public {
		f.routeMarket(rec, r, strings.TrimPrefix(path, "/market"))
	} else {
		f.route(rec, r, path, ft)
	}
	if faulty && ft.Hang { // carried out, never answered
		<-r.Context().Done()
		return
	}
	if faulty && ft.Reset { // carried out, connection dropped
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler) // no hijacking (HTTP/2): abort the stream instead
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body)
}

// recorder holds an answer so a Hang fault can do the work and drop it.
type recorder struct {
	header http.Header
	status int
	body   []byte
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { r.body = append(r.body, b...); return len(b), nil }
func (r *recorder) WriteHeader(s int)           { r.status = s }

func (f *Fake) route(w http.ResponseWriter, r *http.Request, path string, ft Fault) {
	switch {
	case r.Method == http.MethodGet && path == "/accounts":
		f.listAccounts(w, r)
	case r.Method == http.MethodPost && path == "/orders":
		f.createOrder(w, r, ft.Reject)
	case r.Method == http.MethodPost && path == "/orders/batch_cancel":
		f.cancelOrders(w, r)
	case r.Method == http.MethodPost && path == "/orders/edit":
		f.editOrder(w, r, ft.Reject)
	case r.Method == http.MethodGet && path == "/orders/historical/batch":
		f.listOrders(w, r)
	case r.Method == http.MethodGet && path == "/orders/historical/fills":
		f.listFills(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/orders/historical/"):
		f.getOrder(w, strings.TrimPrefix(path, "/orders/historical/"))
	default:
		f.routeMarket(w, r, path) // the product endpoints exist with a key too
	}
}

// routeMarket serves the product endpoints: products, product, candles and
// ticker, under /market (no key) and at the top level (with one).
func (f *Fake) routeMarket(w http.ResponseWriter, r *http.Request, path string) {
	rest, isProduct := strings.CutPrefix(path, "/products/")
	switch {
	case r.Method != http.MethodGet:
	case path == "/products":
		f.listProducts(w, r)
		return
	case isProduct && strings.HasSuffix(rest, "/candles"):
		f.getCandles(w, r, strings.TrimSuffix(rest, "/candles"))
		return
	case isProduct && strings.HasSuffix(rest, "/ticker"):
		f.getTicker(w, strings.TrimSuffix(rest, "/ticker"))
		return
	case isProduct && !strings.Contains(rest, "/"):
		f.getProduct(w, rest)
		return
	}
	apiErr(w, http.StatusNotFound, "NOT_FOUND", "no route "+r.Method+" "+path)
}

// page cuts rows [cursor, cursor+limit) and returns the next cursor ("" at the end).
func page(n int, r *http.Request, def, max int) (from, to int, next string) {
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = def
	}
	limit = min(limit, max)
	from, _ = strconv.Atoi(r.URL.Query().Get("cursor"))
	from = min(max0(from), n)
	to = min(from+limit, n)
	if to < n {
		next = strconv.Itoa(to)
	}
	return from, to, next
}

func max0(n int) int { return max(n, 0) }

func (f *Fake) listAccounts(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	curs := make([]string, 0, len(f.accounts))
	for c := range f.accounts {
		curs = append(curs, c)
	}
	sort.Strings(curs)
	from, to, next := page(len(curs), r, 49, 250)
	out := AccountsPage{Accounts: []Account{}, HasNext: next != "", Cursor: next, Size: to - from}
	for _, c := range curs[from:to] {
		a := f.accounts[c]
		out.Accounts = append(out.Accounts, Account{UUID: a.uuid, Name: c + " Wallet", Currency: c, Active: true, Ready: true, Type: "ACCOUNT_TYPE_CRYPTO",
			AvailableBalance: Money{Value: a.available.String(), Currency: c}, Hold: Money{Value: a.hold.String(), Currency: c}})
	}
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// product is a product with its current price; callers hold mu.
func (f *Fake) product(sym string) (Product, bool) {
	p, ok := f.products[sym]
	if ok {
		p.Price = f.price[sym].String()
		p.MidMarketPrice = p.Price
	}
	return p, ok
}

func (f *Fake) listProducts(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["product_ids"]
	f.mu.Lock()
	out := ProductsPage{Products: []Product{}}
	var syms []string
	for s := range f.products {
		if len(ids) == 0 || contains(ids, s) {
			syms = append(syms, s)
		}
	}
	sort.Strings(syms)
	for _, s := range syms {
		p, _ := f.product(s)
		out.Products = append(out.Products, p)
	}
	out.NumProducts = len(out.Products)
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) getProduct(w http.ResponseWriter, sym string) {
	f.mu.Lock()
	p, ok := f.product(sym)
	f.mu.Unlock()
	if !ok {
		apiErr(w, http.StatusNotFound, "NOT_FOUND", "product not found")
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// maxCandles is the most candles Coinbase answers per request.
const maxCandles = 350

// getCandles answers like Coinbase: start and end in Unix seconds (both
// inclusive), at most 350 candles per request, newest first.
func (f *Fake) getCandles(w http.ResponseWriter, r *http.Request, sym string) {
	q := r.URL.Query()
	g := domain.Granularity(q.Get("granularity"))
	start, err1 := strconv.ParseInt(q.Get("start"), 10, 64)
	end, err2 := strconv.ParseInt(q.Get("end"), 10, 64)
	if g.Duration() == 0 || err1 != nil || err2 != nil || end < start {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "start, end and granularity are required")
		return
	}
	if (end-start)/int64(g.Duration()/time.Second) >= maxCandles {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "number of candles requested should be less than 350")
		return
	}
	f.mu.Lock()
	src := f.candles[sym]
	f.mu.Unlock()
	// Wider candles are merged from the stored ones (none narrower exist).
	var merged []domain.Candle
	for _, c := range src {
		at := c.Time.Truncate(g.Duration())
		if at.Unix() < start || at.Unix() > end {
			continue
		}
		if n := len(merged); n > 0 && merged[n-1].Time.Equal(at) {
			m := &merged[n-1]
			m.High, m.Low = decimal.Max(m.High, c.High), decimal.Min(m.Low, c.Low)
			m.Close, m.Volume = c.Close, m.Volume.Add(c.Volume)
			continue
		}
		c.Time = at
		merged = append(merged, c)
	}
	out := CandlesPage{Candles: []Candle{}}
	for i := len(merged) - 1; i >= 0; i-- { // newest first
		c := merged[i]
		out.Candles = append(out.Candles, Candle{Start: strconv.FormatInt(c.Time.Unix(), 10), Low: c.Low.String(), High: c.High.String(),
			Open: c.Open.String(), Close: c.Close.String(), Volume: c.Volume.String()})
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) getTicker(w http.ResponseWriter, sym string) {
	f.mu.Lock()
	p, ok := f.price[sym]
	f.mu.Unlock()
	if !ok {
		apiErr(w, http.StatusNotFound, "NOT_FOUND", "product not found")
		return
	}
	now := f.now().UTC().Format(time.RFC3339Nano)
	px := p.String()
	writeJSON(w, http.StatusOK, MarketTradesPage{Trades: []MarketTrade{{TradeID: "1", ProductID: sym, Price: px, Size: "0", Time: now, Side: "BUY", Bid: px, Ask: px}},
		BestBid: px, BestAsk: px})
}
