package paper

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// validate checks a request against the exchange's own rules (the gateway
// validates user input with the spec's messages before this).
func (e *Engine) validate(req domain.OrderRequest) error {
	var f map[string]string // made at the first error: a valid order allocates none
	bad := func(field, msg string) {
		if f == nil {
			f = map[string]string{}
		}
		f[field] = msg
	}
	p, known := e.products[req.Symbol]
	if !known {
		bad("symbol", fmt.Sprintf("Unknown symbol %q", req.Symbol))
	}
	if req.Side != domain.Buy && req.Side != domain.Sell {
		bad("side", "Side must be BUY or SELL")
	}
	if !req.Quantity.IsPositive() {
		bad("quantity", "Quantity must be positive")
	}
	priced := func(field string, v *decimal.Decimal) {
		if v == nil || !v.IsPositive() {
			bad(field, "Price must be positive")
		}
	}
	switch req.Type {
	case domain.Market:
	case domain.Limit:
		priced("price", req.Price)
	case domain.StopLoss:
		priced("stop_price", req.StopPrice)
	case domain.TrailingStop:
		for k, v := range domain.CheckTrail(req.Trail) {
			bad(k, v)
		}
	default:
		bad("order_type", "Order type must be market, limit, stop_loss or trailing_stop")
	}
	if req.GroupID != "" && req.Side != domain.Sell {
		bad("side", "Only sell orders can share a protective group")
	}
	if req.GroupID != "" {
		for _, o := range e.live {
			if o.GroupID == req.GroupID && o.Symbol != req.Symbol {
				bad("symbol", "A protective group holds one symbol ("+o.Symbol+")")
			}
		}
	}
	if known && len(f) == 0 {
		for k, v := range p.CheckIncrements(req) {
			bad(k, v)
		}
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, "symbol", "side", "quantity", "price", "stop_price", "trail_percent", "trail_amount", "activation_price", "order_type")
	}
	return nil
}

// takerPrice is where a market (or triggered stop) order fills: the ask for
// buys and the bid for sells, widened by the spread, on the price grid,
// within the quote's Floor and Ceiling when it has them (a backtest's candle).
func (e *Engine) takerPrice(symbol string, side domain.Side) (decimal.Decimal, error) {
	q, ok := e.quotes[symbol]
	if !ok || !q.Last.IsPositive() {
		return decimal.Zero, domain.Errorf(domain.EUnavailable, "No price for %s yet", symbol)
	}
	step := e.products[symbol].PriceIncrement
	if e.cfg.Spread.IsZero() {
		px := q.Bid
		if side == domain.Buy {
			px = q.Ask
		}
		if n, ok := steps(px, step); ok {
			return q.capped(decimal.New(n*step.CoefficientInt64(), step.Exponent()), step), nil // what Div(step).Ceil().Mul(step) makes of it
		}
	}
	if side == domain.Buy {
		return q.capped(q.Ask.Mul(one.Add(e.cfg.Spread)).Div(step).Ceil().Mul(step), step), nil
	}
	return q.capped(q.Bid.Mul(one.Sub(e.cfg.Spread)).Div(step).Floor().Mul(step), step), nil
}

// steps is px / step when px is a whole number of steps that fits in 64
// bits with room (n x the step's coefficient fits too); ok is false
// otherwise, and for a step that is not positive.
func steps(px, step decimal.Decimal) (n int64, ok bool) {
	if !step.IsPositive() || px.NumDigits() > 18 || step.NumDigits() > 18 {
		return 0, false
	}
	a, b := px.CoefficientInt64(), step.CoefficientInt64()
	ea, eb := px.Exponent(), step.Exponent()
	for ; ea > eb && a > -1e17 && a < 1e17; ea-- {
		a *= 10
	}
	for ; eb > ea && b < 1e17; eb-- {
		b *= 10
	}
	if ea != eb || a%b != 0 {
		return 0, false
	}
	n = a / b
	if c := step.CoefficientInt64(); n > (1<<62)/c || n < -(1<<62)/c {
		return 0, false
	}
	return n, true
}

// covers reports whether the account can take qty of o at price now, fees included.
func (t *tx) covers(o domain.Order, qty, price, rate decimal.Decimal) bool {
	if o.Side == domain.Buy {
		return domain.Cmp(t.balance(domain.Quote(o.Symbol)).Available, domain.Times(domain.Times(qty, price), domain.Plus(one, rate))) >= 0
	}
	return domain.Cmp(t.balance(domain.Base(o.Symbol)).Available, qty) >= 0
}

// Place submits an order at time now. A refused order changes nothing.
func (e *Engine) Place(now time.Time, req domain.OrderRequest) (domain.Order, Change, error) {
	req.Symbol = strings.ToUpper(strings.TrimSpace(req.Symbol))
	if err := e.validate(req); err != nil {
		return domain.Order{}, Change{}, err
	}
	t, ids := e.begin(now), e.ids
	o := domain.Order{ID: e.newID("o"), ClientOrderID: req.ClientOrderID, Symbol: req.Symbol, Side: req.Side, Type: req.Type,
		Quantity: req.Quantity, Price: req.Price, StopPrice: req.StopPrice, Trail: copyTrail(req.Trail), FilledQuantity: decimal.Zero, Fee: decimal.Zero,
		Hold: decimal.Zero, GroupID: req.GroupID, ParentID: req.ParentID, Status: domain.StatusPending, Strategy: req.Strategy, StrategyVersion: req.StrategyVersion,
		UserID: req.UserID, CreatedAt: now, UpdatedAt: now}
	if err := t.enter(&o); err != nil {
		e.ids = ids // a refused order takes no number: runs stay reproducible
		return domain.Order{}, Change{}, err
	}
	c := t.apply()
	placed, _ := t.touched(o.ID)
	return placed, c, nil
}

// enter fills o at once if it is marketable, or rests it with its hold.
func (t *tx) enter(o *domain.Order) error {
	e := t.e
	switch o.Type {
	case domain.Market:
		if levels := e.depth(o.Symbol, o.Side); len(levels) > 0 {
			return t.walk(o, levels)
		}
		px, err := e.takerPrice(o.Symbol, o.Side)
		if err != nil {
			return err
		}
		if !t.covers(*o, o.Remaining(), px, e.cfg.TakerFee) {
			return rejected(MsgInsufficient)
		}
		t.fill(o, o.Remaining(), px, "taker")
		return nil
	case domain.Limit:
		px, err := e.takerPrice(o.Symbol, o.Side)
		if err != nil {
			return err
		}
		if o.Side == domain.Buy && o.Price.GreaterThanOrEqual(px) || o.Side == domain.Sell && o.Price.LessThanOrEqual(px) {
			// Crosses the book now: fills at the book's price as a taker.
			t.release(o)
			o.Status = domain.StatusPending
			if !t.covers(*o, o.Remaining(), px, e.cfg.TakerFee) {
				return rejected(MsgInsufficient)
			}
			t.fill(o, o.Remaining(), px, "taker")
			return nil
		}
		return t.hold(o)
	}
	q, ok := e.quotes[o.Symbol]
	if !ok || !q.Last.IsPositive() {
		return domain.Errorf(domain.EUnavailable, "No price for %s yet", o.Symbol)
	}
	if o.Type == domain.TrailingStop {
		if o.Trail.Extreme == nil { // a new one (a modify keeps its mark)
			o.StopPrice = nil
			e.trail(o, q.Last, q.Last)
		}
		if o.StopPrice != nil && !o.StopPrice.IsPositive() {
			return domain.FieldErrors(map[string]string{"trail_amount": "The trail is wider than the price: the stop would be at or below zero"}, "trail_amount")
		}
		return t.hold(o)
	}
	if o.Side == domain.Sell && domain.Cmp(*o.StopPrice, q.Last) >= 0 {
		return domain.FieldErrors(map[string]string{"stop_price": "Stop price must be below the current price for a SELL stop-loss"}, "stop_price")
	}
	if o.Side == domain.Buy && domain.Cmp(*o.StopPrice, q.Last) <= 0 {
		return domain.FieldErrors(map[string]string{"stop_price": "Stop price must be above the current price for a BUY stop"}, "stop_price")
	}
	return t.hold(o)
}

// Cancel cancels a live order; reason (optional) is kept with it.
func (e *Engine) Cancel(now time.Time, id, reason string) (domain.Order, Change, error) {
	o, ok := e.live[id]
	if !ok {
		return domain.Order{}, Change{}, domain.Errorf(domain.ENotFound, "Order not found")
	}
	t := e.begin(now)
	t.release(&o)
	o.Status, o.RejectReason = domain.StatusCancelled, reason
	t.record(o, nil)
	if o.GroupID != "" {
		if err := t.regroup(o.GroupID); err != nil {
			return domain.Order{}, Change{}, err
		}
	}
	c := t.apply()
	return o, c, nil
}

// Modify gives a live limit or stop order a new quantity and/or price (the
// stop price for stops). It is a new order to the book: it loses its time
// priority, takes a new hold, and a limit made marketable fills at once as
// a taker. The quantity must stay above what already filled.
func (e *Engine) Modify(now time.Time, id string, quantity, price *decimal.Decimal) (domain.Order, Change, error) {
	o, ok := e.live[id]
	if !ok {
		return domain.Order{}, Change{}, domain.Errorf(domain.ENotFound, "Order not found")
	}
	if o.Type == domain.Market {
		return domain.Order{}, Change{}, domain.Errorf(domain.EConflict, "Only pending or open limit and stop orders can be modified")
	}
	if o.Type == domain.TrailingStop && price != nil {
		return domain.Order{}, Change{}, domain.FieldErrors(map[string]string{"price": "A trailing stop's stop price follows the market; change its quantity, or cancel it and place a new one"}, "price")
	}
	next := o
	if quantity != nil {
		next.Quantity = *quantity
	}
	if price != nil && o.Type == domain.Limit {
		next.Price = price
	}
	if price != nil && o.Type == domain.StopLoss {
		next.StopPrice = price
	}
	req := domain.OrderRequest{Symbol: next.Symbol, Side: next.Side, Type: next.Type, Quantity: next.Quantity, Price: next.Price,
		StopPrice: next.StopPrice, Trail: next.Trail, GroupID: next.GroupID}
	if err := e.validate(req); err != nil {
		return domain.Order{}, Change{}, err
	}
	if next.Quantity.LessThanOrEqual(o.FilledQuantity) {
		return domain.Order{}, Change{}, domain.FieldErrors(map[string]string{"quantity": "Quantity must be greater than the filled quantity " + o.FilledQuantity.String()}, "quantity")
	}
	t := e.begin(now)
	t.release(&next)
	if err := t.enter(&next); err != nil {
		return domain.Order{}, Change{}, err
	}
	if next.GroupID != "" {
		if err := t.regroup(next.GroupID); err != nil {
			return domain.Order{}, Change{}, err
		}
	}
	c := t.apply()
	modified, _ := t.touched(next.ID)
	return modified, c, nil
}

func copyTrail(t *domain.Trail) *domain.Trail {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}
