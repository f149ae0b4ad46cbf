package coinbase

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/updatefeed"
)

// Options configure the adapter.
type Options struct {
	Client *Client
	// Products reads product metadata when Client cannot (Coinbase's sandbox
	// serves accounts and orders only); nil uses Client.
	Products *Client
	// Sandbox says the client talks to Coinbase's sandbox (static answers, no money).
	Sandbox bool
	// Symbols are the products Kestrel trades (domain.Symbols by default).
	Symbols []string
	// StopLimitOffset places a stop-loss's limit this fraction beyond its
	// stop (below for a sell), so the order still fills in a fast market:
	// Coinbase has no stop-market order. Default DefaultStopLimitOffset.
	StopLimitOffset decimal.Decimal
	// Meta keeps what Coinbase does not (user, strategy, protective group)
	// across restarts; nil keeps it in memory only (the last Remember orders).
	Meta domain.KVStore
	// Remember is how many finished orders (and order details, client ids)
	// the adapter keeps in memory, least recently used dropped first; the
	// live orders are always kept. Default DefaultRemember.
	Remember int
	// SeenFor is how long fill ids are remembered so a fill is reported
	// once; a fill older than this is history and never reported as new.
	// Default DefaultSeenFor.
	SeenFor time.Duration
	// TrailEvery is the least time between two edits of one trailing stop
	// (DefaultTrailEvery).
	TrailEvery time.Duration
	// Alert raises a system alert (nil: logged only). A trailing stop that
	// Coinbase refuses to move TrailRefusalsAlert times in a row raises
	// one, so a stop left behind the price is seen, not only logged.
	Alert func(ctx context.Context, key, severity, title, message string)
	// ResolveAlert resolves the alert raised under key, as Kestrel itself
	// (nil: left for a person): a trailing stop's alert once an edit of it
	// lands, so an open alert always means a stop still left behind.
	ResolveAlert func(ctx context.Context, key string)
	// FillsNotified says a follower of Updates queues each fill's
	// notification itself, once per fill id (notify.Service.FollowFills):
	// the fill updates are then marked Journaled, so nothing queues them
	// again from the bus.
	FillsNotified bool
	Now           func() time.Time
}

// The memory bounds' defaults: ten thousand finished orders, a day of fills.
const (
	DefaultRemember = 10_000
	DefaultSeenFor  = 24 * time.Hour
)

// DefaultStopLimitOffset is 1%: a sell stop at 48,000 rests a limit at 47,520.
var DefaultStopLimitOffset = decimal.RequireFromString("0.01")

// MsgInsufficient is the spec's refusal for a trade the account cannot cover.
const MsgInsufficient = "Insufficient balance for this trade"

// Exchange implements domain.Exchange on Coinbase Advanced Trade.
type Exchange struct {
	c   *Client
	opt Options

	// What the adapter remembers is bounded: live orders (as many as are
	// open at Coinbase), the last Remember finished orders, order details
	// and client ids (the store keeps them all), and a SeenFor window of
	// fill ids.
	mu       sync.Mutex
	meta     *lru[string, meta]         // by Coinbase order id
	byClient *lru[string, string]       // Coinbase client_order_id -> order id
	live     map[string]domain.Order    // pending and open orders: their last state reported
	closed   *lru[string, domain.Order] // finished orders: their last state reported
	loaded   bool                       // live holds Coinbase's open orders
	seen     map[string]time.Time       // fill entry ids already reported, with the fill's time
	fillMark time.Time                  // fills before this were all seen
	products []domain.Product
	prodAt   time.Time

	syncMu    sync.Mutex // one resync at a time
	refreshMu sync.Mutex // one order read-back at a time
	// stopMu makes edits of a stop one at a time: an edit sends the whole
	// order (size, limit, stop), so the trail and a modify must not cross.
	stopMu sync.Mutex
	trails map[string]*trailState // the trailing stops followed, by order id (under stopMu)
	health health
	quotes func() time.Time

	updates updatefeed.Feed
}

var _ domain.Exchange = (*Exchange)(nil)

// New returns the adapter; it calls Coinbase only when used.
func New(opt Options) *Exchange {
	if len(opt.Symbols) == 0 {
		opt.Symbols = domain.Symbols
	}
	if !opt.StopLimitOffset.IsPositive() {
		opt.StopLimitOffset = DefaultStopLimitOffset
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Remember <= 0 {
		opt.Remember = DefaultRemember
	}
	if opt.SeenFor <= 0 {
		opt.SeenFor = DefaultSeenFor
	}
	if opt.TrailEvery <= 0 {
		opt.TrailEvery = DefaultTrailEvery
	}
	return &Exchange{c: opt.Client, opt: opt, meta: newLRU[string, meta](opt.Remember), byClient: newLRU[string, string](opt.Remember),
		live: map[string]domain.Order{}, closed: newLRU[string, domain.Order](opt.Remember), seen: map[string]time.Time{}, trails: map[string]*trailState{}}
}

// Client is the REST client underneath (market data shares it).
func (x *Exchange) Client() *Client { return x.c }

// Name implements domain.Exchange.
func (x *Exchange) Name() string { return "coinbase" }

// IsSandbox implements domain.Exchange: Coinbase's sandbox moves no money.
func (x *Exchange) IsSandbox() bool { return x.opt.Sandbox }

// Products implements domain.Exchange: the traded symbols' increments and
// minimum sizes as Coinbase publishes them, cached for ten minutes.
func (x *Exchange) Products(ctx context.Context) ([]domain.Product, error) {
	x.mu.Lock()
	if x.products != nil && x.opt.Now().Sub(x.prodAt) < 10*time.Minute {
		ps := x.products
		x.mu.Unlock()
		return ps, nil
	}
	x.mu.Unlock()
	pc := x.c
	if x.opt.Products != nil {
		pc = x.opt.Products
	}
	raw, err := pc.Products(ctx, x.opt.Symbols)
	if err != nil {
		return nil, err
	}
	ps := make([]domain.Product, 0, len(raw))
	for _, p := range raw {
		if slices.Contains(x.opt.Symbols, p.ProductID) {
			ps = append(ps, toProduct(p))
		}
	}
	x.mu.Lock()
	x.products, x.prodAt = ps, x.opt.Now()
	x.mu.Unlock()
	return ps, nil
}

func (x *Exchange) product(ctx context.Context, symbol string) (domain.Product, error) {
	ps, err := x.Products(ctx)
	if err != nil {
		return domain.Product{}, err
	}
	for _, p := range ps {
		if p.Symbol == symbol {
			return p, nil
		}
	}
	return domain.Product{}, domain.FieldErrors(map[string]string{"symbol": "Symbol must be one of " + strings.Join(x.opt.Symbols, ", ")}, "symbol")
}

// Balances implements domain.Exchange from the accounts endpoint.
func (x *Exchange) Balances(ctx context.Context) ([]domain.Balance, error) {
	accts, err := x.c.Accounts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Balance, 0, len(accts))
	for _, a := range accts {
		b := domain.Balance{Currency: a.Currency, Available: dec(a.AvailableBalance.Value), Hold: dec(a.Hold.Value)}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out, nil
}

// Account is the balances with Kestrel's position books, rebuilt from the
// traded symbols' fills (Coinbase reports no cost basis).
func (x *Exchange) Account(ctx context.Context) (domain.Account, error) {
	bals, err := x.Balances(ctx)
	if err != nil {
		return domain.Account{}, err
	}
	fills, err := x.Fills(ctx, domain.FillFilter{})
	if err != nil {
		return domain.Account{}, err
	}
	books := map[string]domain.PositionBook{}
	for i := len(fills) - 1; i >= 0; i-- { // oldest first
		f := fills[i]
		b, ok := books[f.Symbol]
		if !ok {
			b = domain.NewPositionBook(f.Symbol)
		}
		books[f.Symbol] = b.Apply(f)
	}
	acct := domain.Account{Balances: bals}
	for _, s := range x.opt.Symbols {
		if b, ok := books[s]; ok {
			acct.Positions = append(acct.Positions, b)
		}
	}
	return acct, nil
}

// clientOrderID is the client_order_id Coinbase sees: one account serves
// every Kestrel user, so a user's own id is made unique per user (a name-
// based UUID, stable across retries and restarts).
func clientOrderID(userID, clientID string) string {
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte("kestrel\x00"+userID+"\x00"+clientID)).String()
}

// PlaceOrder implements domain.Exchange. Every order carries a client order
// id, so a retry never makes a second order: after an unknown outcome the
// order is looked up by that id first, and sent again only if absent.
func (x *Exchange) PlaceOrder(ctx context.Context, req domain.OrderRequest) (domain.Order, error) {
	req.Symbol = strings.ToUpper(strings.TrimSpace(req.Symbol))
	p, err := x.product(ctx, req.Symbol)
	if err != nil {
		return domain.Order{}, err
	}
	m := meta{UserID: req.UserID, ClientID: req.ClientOrderID, Strategy: req.Strategy, StrategyVersion: req.StrategyVersion, GroupID: req.GroupID, ParentID: req.ParentID}
	if req.Type == domain.TrailingStop { // a real stop-limit, at the trail from the price now
		if m.Trail, err = x.startTrail(ctx, p, &req); err != nil {
			return domain.Order{}, err
		}
	}
	body, err := x.request(p, req)
	if err != nil {
		return domain.Order{}, err
	}
	// A client order id seen before answers from memory; one that is not is
	// still safe to send: Coinbase answers a repeated client_order_id with the
	// order it already has instead of making another.
	x.mu.Lock()
	prev, seen := x.byClient.Get(body.ClientOrderID)
	x.mu.Unlock()
	if seen && req.ClientOrderID != "" {
		return x.Order(ctx, prev)
	}
	sent := x.opt.Now()
	var id string
	for attempt := 0; ; attempt++ {
		resp, err := x.c.CreateOrder(ctx, body)
		if err == nil {
			if !resp.Success {
				return domain.Order{}, rejection(resp)
			}
			id = resp.OrderID
			if resp.SuccessResponse != nil && resp.SuccessResponse.OrderID != "" {
				id = resp.SuccessResponse.OrderID
			}
			break
		}
		if !unknownOutcome(err) { // refused, or never sent: not placed
			return domain.Order{}, err
		}
		slog.Warn("coinbase order outcome unknown; looking it up by client order id", "client_order_id", body.ClientOrderID, "err", err, "component", "exchange")
		found, lerr := x.findByClientID(ctx, body.ClientOrderID, req.Symbol, sent.Add(-time.Minute))
		if lerr == nil {
			id = found.OrderID
			break
		}
		if domain.ErrorCode(lerr) != domain.ENotFound { // could not look: it may be there
			return domain.Order{}, orderUnconfirmed(req, err)
		}
		if attempt >= x.c.cfg.Retries {
			return domain.Order{}, orderUnconfirmed(req, err)
		}
		if serr := x.c.cfg.Sleep(ctx, x.c.backoff(attempt)); serr != nil {
			return domain.Order{}, orderUnconfirmed(req, err)
		}
	}
	x.remember(ctx, id, body.ClientOrderID, m)
	o, err := x.refresh(ctx, id)
	if err == nil && o.Type == domain.Market && o.Status == domain.StatusPending {
		o, err = x.settle(ctx, id) // an IOC order finishes within moments
	}
	if err != nil { // placed, but its state is not known: never "not run"
		return domain.Order{}, &domain.Error{Code: domain.EUnknownOutcome, Cause: err, Message: fmt.Sprintf(
			"Coinbase placed the order (%s) but it could not be read back; look in Orders, or retry with the same client order id, which returns it", id)}
	}
	return o, nil
}

// orderUnconfirmed is the answer for an order Coinbase may or may not have
// placed: the request went out and neither an answer nor a look says which.
func orderUnconfirmed(req domain.OrderRequest, cause error) error {
	msg := "Coinbase did not confirm the order and it is not among your orders yet: it may or may not have been placed. " +
		"Retry with the same client order id: that returns the order if it was placed and places it once if not"
	if req.ClientOrderID == "" {
		msg = "Coinbase did not confirm the order and it is not among your orders yet: it may or may not have been placed. " +
			"Check Orders before placing it again (an order sent with a client order id can be retried safely)"
	}
	return &domain.Error{Code: domain.EUnknownOutcome, Message: msg, Cause: cause}
}

// settle re-reads a just-placed market order until it leaves pending (a
// few tries; Coinbase matches IOC orders within milliseconds).
func (x *Exchange) settle(ctx context.Context, id string) (domain.Order, error) {
	var o domain.Order
	var err error
	for i := 0; i < 5; i++ {
		if err := x.c.cfg.Sleep(ctx, 100*time.Millisecond<<i); err != nil {
			return o, err
		}
		if o, err = x.refresh(ctx, id); err != nil || o.Status != domain.StatusPending {
			return o, err
		}
	}
	return o, err
}

// request builds the Coinbase order for a Kestrel request.
func (x *Exchange) request(p domain.Product, req domain.OrderRequest) (CreateOrderRequest, error) {
	f := map[string]string{}
	if req.Side != domain.Buy && req.Side != domain.Sell {
		f["side"] = "Side must be BUY or SELL"
	}
	if !req.Quantity.IsPositive() {
		f["quantity"] = "Quantity must be greater than zero"
	}
	oc := OrderConfiguration{}
	size := req.Quantity.String()
	switch req.Type {
	case domain.Market:
		oc.MarketIOC = &MarketIOC{BaseSize: size}
	case domain.Limit:
		if req.Price == nil || !req.Price.IsPositive() {
			f["price"] = "Limit orders need a price greater than zero"
			break
		}
		oc.LimitGTC = &LimitGTC{BaseSize: size, LimitPrice: req.Price.String()}
	case domain.StopLoss, domain.TrailingStop: // a trailing stop's first stop is set by startTrail
		if req.StopPrice == nil || !req.StopPrice.IsPositive() {
			f["stop_price"] = "Stop-loss orders need a stop price greater than zero"
			break
		}
		limit, dir := x.stopLimit(p, req.Side, *req.StopPrice)
		oc.StopLimitGTC = &StopLimitGTC{BaseSize: size, StopPrice: req.StopPrice.String(), LimitPrice: limit.String(), StopDirection: dir}
	default:
		f["order_type"] = "Order type must be market, limit, stop_loss or trailing_stop"
	}
	if len(f) == 0 {
		f = p.CheckIncrements(req)
	}
	if len(f) > 0 {
		return CreateOrderRequest{}, domain.FieldErrors(f, "side", "order_type", "quantity", "price", "stop_price")
	}
	coid := uuid.NewString()
	if req.ClientOrderID != "" {
		coid = clientOrderID(req.UserID, req.ClientOrderID)
	}
	return CreateOrderRequest{ClientOrderID: coid, ProductID: req.Symbol, Side: string(req.Side), OrderConfiguration: oc}, nil
}

// stopLimit is the protective limit for a stop: the offset beyond the stop
// in the direction the market is moving, on the product's price grid.
func (x *Exchange) stopLimit(p domain.Product, side domain.Side, stop decimal.Decimal) (decimal.Decimal, string) {
	return StopLimitFor(p.PriceIncrement, side, stop, x.opt.StopLimitOffset)
}

// StopLimitFor is the limit price and stop direction Coinbase is sent for a
// stop-loss at stop: offset below it for a sell (rounded down to the price
// increment), above it for a buy (rounded up).
func StopLimitFor(inc decimal.Decimal, side domain.Side, stop, offset decimal.Decimal) (decimal.Decimal, string) {
	if !inc.IsPositive() {
		inc = decimal.New(1, -2)
	}
	if side == domain.Sell {
		l := stop.Mul(decimal.NewFromInt(1).Sub(offset))
		return l.Div(inc).Floor().Mul(inc), "STOP_DIRECTION_STOP_DOWN"
	}
	l := stop.Mul(decimal.NewFromInt(1).Add(offset))
	return l.Div(inc).Ceil().Mul(inc), "STOP_DIRECTION_STOP_UP"
}

// rejection words an order Coinbase refused (HTTP 200, success false).
func rejection(r CreateOrderResponse) error {
	var code, msg string
	if e := r.ErrorResponse; e != nil {
		code, msg = e.Error, e.Message
		if code == "" || code == "UNKNOWN_FAILURE_REASON" {
			code = firstNonEmpty(e.PreviewFailureReason, e.NewOrderFailureReason, code)
		}
		if msg == "" {
			msg = e.ErrorDetails
		}
	}
	code = firstNonEmpty(code, r.FailureReason)
	if strings.Contains(code, "INSUFFICIENT_FUND") {
		return domain.Errorf(domain.ERejected, MsgInsufficient)
	}
	if msg == "" {
		msg = code
	}
	return domain.Errorf(domain.ERejected, "Coinbase rejected the order: %s (%s)", msg, code)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" && v != "UNKNOWN_FAILURE_REASON" {
			return v
		}
	}
	return ""
}

// remember records Kestrel's side of a new order (and stores it, if it can).
func (x *Exchange) remember(ctx context.Context, id, coid string, m meta) {
	x.mu.Lock()
	x.byClient.Put(coid, id)
	x.mu.Unlock()
	x.saveMeta(ctx, id, m)
	if x.opt.Meta != nil {
		if err := x.opt.Meta.PutValue(ctx, "coinbase.client."+coid, id); err != nil {
			slog.Warn("store coinbase client order id", "order_id", id, "err", err, "component", "exchange")
		}
	}
}

// saveMeta records Kestrel's side of an order in memory and the store.
func (x *Exchange) saveMeta(ctx context.Context, id string, m meta) {
	x.mu.Lock()
	x.meta.Put(id, m)
	x.mu.Unlock()
	if x.opt.Meta != nil {
		raw, _ := json.Marshal(m)
		if err := x.opt.Meta.PutValue(ctx, "coinbase.order."+id, string(raw)); err != nil {
			slog.Warn("store coinbase order details", "order_id", id, "err", err, "component", "exchange")
		}
	}
}

// metaFor returns Kestrel's side of an order, from memory or the store.
func (x *Exchange) metaFor(ctx context.Context, id string) meta {
	x.mu.Lock()
	m, ok := x.meta.Get(id)
	x.mu.Unlock()
	if ok || x.opt.Meta == nil {
		return m
	}
	if raw, err := x.opt.Meta.GetValue(ctx, "coinbase.order."+id); err == nil && json.Unmarshal([]byte(raw), &m) == nil {
		x.mu.Lock()
		x.meta.Put(id, m)
		x.mu.Unlock()
	}
	return m
}

// findByClientID scans recent orders of symbol for a client_order_id.
func (x *Exchange) findByClientID(ctx context.Context, coid, symbol string, since time.Time) (Order, error) {
	q := OrderQuery{Start: since}
	if symbol != "" {
		q.Products = []string{symbol}
	}
	os, err := x.c.Orders(ctx, q)
	if err != nil {
		return Order{}, err
	}
	for _, o := range os {
		if o.ClientOrderID == coid {
			return o, nil
		}
	}
	return Order{}, domain.Errorf(domain.ENotFound, "Order not found")
}

// Order implements domain.Exchange.
func (x *Exchange) Order(ctx context.Context, id string) (domain.Order, error) {
	o, err := x.fetch(ctx, id)
	if err != nil {
		return domain.Order{}, err
	}
	return toOrder(o, x.metaFor(ctx, id)), nil
}

// fetch reads one order as Coinbase has it.
func (x *Exchange) fetch(ctx context.Context, id string) (Order, error) {
	o, err := x.c.Order(ctx, id)
	if domain.ErrorCode(err) == domain.ENotFound {
		return Order{}, domain.Errorf(domain.ENotFound, "Order not found")
	}
	return o, err
}

// clientLookback bounds the scan for a client order id Kestrel has no
// record of (the gateway asks before every order): retries come within
// minutes, and a full history scan would cost a request per 250 orders.
const clientLookback = 24 * time.Hour

// OrderByClientID implements domain.Exchange: from memory, then the stored
// record of orders Kestrel placed, then the last day of Coinbase's orders.
func (x *Exchange) OrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	coid := clientOrderID(userID, clientID)
	x.mu.Lock()
	id, ok := x.byClient.Get(coid)
	x.mu.Unlock()
	if !ok && x.opt.Meta != nil {
		if stored, err := x.opt.Meta.GetValue(ctx, "coinbase.client."+coid); err == nil {
			id, ok = stored, true
		}
	}
	if ok {
		return x.Order(ctx, id)
	}
	o, err := x.findByClientID(ctx, coid, "", x.opt.Now().Add(-clientLookback))
	if err != nil {
		return domain.Order{}, err
	}
	x.mu.Lock()
	x.byClient.Put(coid, o.OrderID)
	x.mu.Unlock()
	return toOrder(o, x.metaFor(ctx, o.OrderID)), nil
}

// Orders implements domain.Exchange, newest first.
func (x *Exchange) Orders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	q := OrderQuery{Statuses: statusFilter(f.Status), Start: f.Since, Limit: f.Limit}
	if f.Symbol != "" {
		q.Products = []string{strings.ToUpper(f.Symbol)}
	}
	raw, err := x.c.Orders(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Order, 0, len(raw))
	for _, o := range raw {
		out = append(out, toOrder(o, x.metaFor(ctx, o.OrderID)))
	}
	return out, nil
}

// LiveOrders implements domain.Exchange from memory, loading Coinbase's
// open orders the first time.
func (x *Exchange) LiveOrders(ctx context.Context) ([]domain.Order, error) {
	x.mu.Lock()
	loaded := x.loaded
	x.mu.Unlock()
	if !loaded {
		if err := x.Sync(ctx); err != nil {
			return nil, err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]domain.Order, 0, len(x.live))
	for _, o := range x.live {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Fills implements domain.Exchange, newest first.
func (x *Exchange) Fills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	q := FillQuery{Start: f.Since}
	if f.Symbol != "" {
		q.Products = []string{strings.ToUpper(f.Symbol)}
	} else {
		q.Products = x.opt.Symbols
	}
	if f.Limit > 0 {
		q.Limit = f.Offset + f.Limit
	}
	raw, err := x.c.Fills(ctx, q)
	if err != nil {
		return nil, err
	}
	if f.Offset >= len(raw) {
		return []domain.Fill{}, nil
	}
	raw = raw[f.Offset:]
	out := make([]domain.Fill, 0, len(raw))
	for _, r := range raw {
		out = append(out, toFill(r, x.metaFor(ctx, r.OrderID)))
	}
	return out, nil
}

// CancelOrder implements domain.Exchange.
func (x *Exchange) CancelOrder(ctx context.Context, id string) (domain.Order, error) {
	cur, err := x.Order(ctx, id)
	if err != nil {
		return domain.Order{}, err
	}
	if !cur.Status.Live() {
		return domain.Order{}, domain.Errorf(domain.EConflict, "Order cannot be cancelled in status %s", cur.Status)
	}
	resp, err := x.c.CancelOrders(ctx, []string{id})
	if unknownOutcome(err) { // a cancel may have been carried out: look
		now, rerr := x.refresh(ctx, id)
		switch {
		case rerr == nil && now.Status == domain.StatusCancelled:
			return now, nil
		case rerr == nil && !now.Status.Live():
			return domain.Order{}, domain.Errorf(domain.EConflict, "Order cannot be cancelled in status %s", now.Status)
		}
		return domain.Order{}, &domain.Error{Code: domain.EUnknownOutcome, Cause: err,
			Message: "Coinbase did not confirm the cancel: it may or may not have been made. Cancelling again is safe; the order's status says which"}
	}
	if err != nil {
		return domain.Order{}, err
	}
	for _, r := range resp.Results {
		if r.OrderID == id && !r.Success {
			now, err := x.refresh(ctx, id)
			if err == nil && now.Status == domain.StatusCancelled {
				// Live when read above, cancelled now: this call's own cancel
				// whose answer was lost and which the client sent again (or a
				// cancel racing it). The order is cancelled as asked.
				return now, nil
			}
			if err == nil && !now.Status.Live() {
				return domain.Order{}, domain.Errorf(domain.EConflict, "Order cannot be cancelled in status %s", now.Status)
			}
			return domain.Order{}, domain.Errorf(domain.ERejected, "Coinbase did not cancel the order: %s", r.FailureReason)
		}
	}
	return x.refresh(ctx, id)
}

// ModifyOrder implements domain.Exchange with /orders/edit, which Coinbase
// offers for GTC limit and GTC stop-limit orders. A stop (a stop-loss, or a
// trailing stop's quantity) is edited in place, so it guards the position
// throughout; where Coinbase answers that it edits limit orders only, a
// stop-loss is replaced instead (replaceStop).
func (x *Exchange) ModifyOrder(ctx context.Context, id string, quantity, price *decimal.Decimal) (domain.Order, error) {
	if quantity == nil && price == nil {
		return domain.Order{}, domain.Errorf(domain.EInvalid, "Please provide at least one field to modify")
	}
	raw, err := x.fetch(ctx, id)
	if err != nil {
		return domain.Order{}, err
	}
	cur := toOrder(raw, x.metaFor(ctx, id))
	if !cur.Status.Live() {
		return domain.Order{}, domain.Errorf(domain.EConflict, "Only pending or open limit and stop orders can be modified (this one is %s)", cur.Status)
	}
	if quoteSized(raw) { // its size is in quote currency; an edit's size would be read in base
		return domain.Order{}, domain.Errorf(domain.EConflict, "This order was sized in %s on Coinbase; cancel it and place a new one", domain.Quote(cur.Symbol))
	}
	switch cur.Type {
	case domain.Limit:
	case domain.TrailingStop, domain.StopLoss:
		if cur.Type == domain.TrailingStop && price != nil {
			return domain.Order{}, domain.FieldErrors(map[string]string{"price": "A trailing stop's stop price follows the market; change its quantity, or cancel it and place a new one"}, "price")
		}
		x.stopMu.Lock()
		defer x.stopMu.Unlock()
	default:
		return domain.Order{}, domain.Errorf(domain.EConflict, "Coinbase can edit limit and stop orders only; cancel this %s order and place a new one", cur.Type)
	}
	req := domain.OrderRequest{Symbol: cur.Symbol, Side: cur.Side, Type: cur.Type, Quantity: cur.Quantity, Price: cur.Price, StopPrice: cur.StopPrice}
	if quantity != nil {
		req.Quantity = *quantity
	}
	if price != nil && cur.Type == domain.Limit {
		req.Price = price
	} else if price != nil {
		req.StopPrice = price
	}
	p, err := x.product(ctx, cur.Symbol)
	if err != nil {
		return domain.Order{}, err
	}
	if f := p.CheckIncrements(req); f != nil {
		return domain.Order{}, domain.FieldErrors(f, "quantity", "price", "stop_price")
	}
	// Already as asked: a caller sending again an edit whose answer it lost
	// (Coinbase refuses an edit equal to the order as
	// EDIT_REQUEST_EQUAL_TO_ORIGINAL_REQUEST).
	if edited(cur, req) {
		return x.refresh(ctx, id)
	}
	resp, err := x.edit(ctx, id, x.editFor(p, id, req), req)
	if err != nil {
		return domain.Order{}, err
	}
	if !resp.Success {
		if equalEdit(resp) { // an earlier try landed after the look above
			if now, gerr := x.Order(ctx, id); gerr == nil && edited(now, req) {
				return x.refresh(ctx, id)
			}
		}
		if cur.Type == domain.StopLoss && limitOnlyEdits(resp) {
			return x.replaceStop(ctx, cur, quantity, price)
		}
		if limitOnlyEdits(resp) { // a trailing stop: the caller may cancel it and place it again
			return domain.Order{}, domain.Errorf(domain.EConflict, "Coinbase edits limit orders only here; cancel this trailing stop and place a new one")
		}
		return domain.Order{}, editRejection(resp)
	}
	return x.refresh(ctx, id)
}

// editFor is the edit making order id what req asks: a stop's limit
// follows its stop by the stop-limit offset, as when it was placed.
func (x *Exchange) editFor(p domain.Product, id string, req domain.OrderRequest) EditRequest {
	if req.StopPrice == nil {
		return EditRequest{OrderID: id, Price: req.Price.String(), Size: req.Quantity.String()}
	}
	limit, _ := x.stopLimit(p, req.Side, *req.StopPrice)
	return EditRequest{OrderID: id, Price: limit.String(), Size: req.Quantity.String(), StopPrice: req.StopPrice.String()}
}

// edit sends an edit; when its answer is lost it reads the order and sends
// the edit once more only if the order is not yet as req asks (an edit made
// answers success). A second loss is 504.
func (x *Exchange) edit(ctx context.Context, id string, e EditRequest, req domain.OrderRequest) (EditResponse, error) {
	resp, err := x.c.EditOrder(ctx, e)
	lost := unknownOutcome(err) // the first edit may have landed
	if lost {                   // look before editing again
		if now, gerr := x.Order(ctx, id); gerr == nil && edited(now, req) {
			return EditResponse{Success: true}, nil
		}
		resp, err = x.c.EditOrder(ctx, e)
	}
	if err != nil {
		// After a lost first edit, only a refusal about the order itself
		// (not found, not editable, invalid) tells something; a second
		// unknown, a 429 or an unreachable Coinbase leaves the first in doubt.
		if c := domain.ErrorCode(err); unknownOutcome(err) || (lost && (c == domain.EUnavailable || c == domain.ETooMany)) {
			return resp, &domain.Error{Code: domain.EUnknownOutcome, Cause: err,
				Message: "Coinbase did not confirm the edit: it may or may not have been made. Sending the same edit again is safe; the order's quantity and price say which"}
		}
		return resp, err
	}
	return resp, nil
}

// replaceStop modifies a stop where Coinbase edits limit orders only (it
// answers ONLY_LIMIT_ORDER_EDITS_SUPPORTED): the new stop is placed
// first and the old one cancelled after, so the position is never without
// a stop. Coinbase holds the base currency of a resting SELL stop, so the
// new one can only be placed when the account has that much free besides
// the old one's hold; when it has not, nothing is changed and the answer
// is a 409 saying so (cancelling first would leave the position bare). The
// new stop keeps the old one's owner, strategy, group and parent; it has a
// new order id.
func (x *Exchange) replaceStop(ctx context.Context, cur domain.Order, quantity, stop *decimal.Decimal) (domain.Order, error) {
	req := domain.OrderRequest{Symbol: cur.Symbol, Side: cur.Side, Type: domain.StopLoss, Quantity: cur.Remaining(),
		StopPrice: cur.StopPrice, Strategy: cur.Strategy, UserID: cur.UserID, GroupID: cur.GroupID, ParentID: cur.ParentID}
	if quantity != nil {
		if !quantity.GreaterThan(cur.FilledQuantity) {
			return domain.Order{}, domain.FieldErrors(map[string]string{"quantity": "Quantity must be greater than the filled quantity " + cur.FilledQuantity.String()}, "quantity")
		}
		req.Quantity = quantity.Sub(cur.FilledQuantity) // the new stop covers what the old had left
	}
	if stop != nil {
		req.StopPrice = stop
	}
	if req.Quantity.Equal(cur.Remaining()) && req.StopPrice.Equal(*cur.StopPrice) {
		return cur, nil // already as asked
	}
	// Derived from the stop replaced and the change, so a retry after a lost
	// answer finds the replacement instead of placing a second one.
	req.ClientOrderID = fmt.Sprintf("mv-%s-%s-%s", cur.ID, req.Quantity, req.StopPrice)
	next, err := x.PlaceOrder(ctx, req)
	if err != nil {
		if domain.ErrorCode(err) == domain.ERejected && domain.ErrorMessage(err) == MsgInsufficient {
			return domain.Order{}, domain.Errorf(domain.EConflict,
				"Coinbase holds the %s %s of this stop, so its replacement cannot be placed before it is cancelled, and Kestrel never cancels a stop first. The stop is unchanged; to move it, free %s %s or cancel it and place a new one",
				cur.Remaining(), domain.Base(cur.Symbol), req.Quantity, domain.Base(cur.Symbol))
		}
		return domain.Order{}, err // the old stop is untouched
	}
	if _, err := x.CancelOrder(ctx, cur.ID); err != nil {
		if now, rerr := x.refresh(ctx, cur.ID); rerr == nil && now.Status == domain.StatusFilled {
			// The old stop triggered meanwhile: the position it guarded is
			// sold, and the new stop would sell what it does not guard.
			if _, cerr := x.CancelOrder(ctx, next.ID); cerr != nil {
				return domain.Order{}, domain.Errorf(domain.EConflict, "The stop %s filled before it could be replaced, and its replacement %s could not be cancelled (%s): cancel it", cur.ID, next.ID, domain.ErrorMessage(cerr))
			}
			return domain.Order{}, domain.Errorf(domain.EConflict, "The stop %s filled before it could be replaced; its replacement was cancelled", cur.ID)
		}
		return domain.Order{}, &domain.Error{Code: domain.ErrorCode(err), Cause: err, Message: fmt.Sprintf(
			"The new stop %s is placed but the old stop %s could not be cancelled (%s): both are live; cancel %s", next.ID, cur.ID, domain.ErrorMessage(err), cur.ID)}
	}
	return next, nil
}

// edited reports whether o has req's quantity, limit price (a limit
// order) and stop price (a stop).
func edited(o domain.Order, req domain.OrderRequest) bool {
	return o.Quantity.Equal(req.Quantity) && (o.Price != nil || o.StopPrice != nil) && eqDec(o.Price, req.Price) && eqDec(o.StopPrice, req.StopPrice)
}

// limitOnlyEdits reports whether Coinbase refused an edit because it edits
// limit orders only.
func limitOnlyEdits(r EditResponse) bool {
	for _, e := range r.Errors {
		if e.EditFailureReason == "ONLY_LIMIT_ORDER_EDITS_SUPPORTED" {
			return true
		}
	}
	return false
}

// equalEdit reports whether Coinbase refused an edit for asking what the
// order already is.
func equalEdit(r EditResponse) bool {
	for _, e := range r.Errors {
		if e.EditFailureReason == "EDIT_REQUEST_EQUAL_TO_ORIGINAL_REQUEST" {
			return true
		}
	}
	return false
}

func editRejection(r EditResponse) error {
	var reasons []string
	for _, e := range r.Errors {
		reason := firstNonEmpty(e.EditFailureReason, e.PreviewFailureReason)
		switch {
		case reason == "ORDER_NOT_FOUND":
			return domain.Errorf(domain.ENotFound, "Order not found")
		case strings.Contains(reason, "INSUFFICIENT_FUND"):
			return domain.Errorf(domain.ERejected, MsgInsufficient)
		case reason == "ONLY_OPEN_ORDERS_CAN_BE_EDITED":
			return domain.Errorf(domain.EConflict, "Only open orders can be modified")
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
	}
	return domain.Errorf(domain.ERejected, "Coinbase refused the edit: %s", strings.Join(reasons, ", "))
}

// String describes the adapter for logs.
func (x *Exchange) String() string {
	return fmt.Sprintf("coinbase %s (sandbox %v)", x.c.cfg.BaseURL, x.opt.Sandbox)
}
