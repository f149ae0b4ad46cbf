package sandbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// MsgInsufficient is the spec's refusal for a trade the account cannot cover.
const MsgInsufficient = "Insufficient balance for this trade"

var one = decimal.NewFromInt(1)

// validate checks a request against the exchange's own rules (the trading
// desk validates user input with the spec's messages before this).
func (s *Sandbox) validate(req domain.OrderRequest) error {
	f := map[string]string{}
	if s.books[req.Symbol] == nil {
		f["symbol"] = fmt.Sprintf("Unknown symbol %q", req.Symbol)
	}
	if req.Side != domain.Buy && req.Side != domain.Sell {
		f["side"] = "Side must be BUY or SELL"
	}
	if !req.Quantity.IsPositive() || !req.Quantity.Mod(domain.QuantityStep).IsZero() {
		f["quantity"] = "Quantity must be positive and a multiple of 0.00000001"
	}
	step := domain.PriceStepFor(req.Symbol)
	checkPrice := func(field string, p *decimal.Decimal) {
		if p == nil || !p.IsPositive() || !p.Mod(step).IsZero() {
			f[field] = "Price must be positive and a multiple of " + step.String()
		}
	}
	switch req.Type {
	case domain.Market:
	case domain.Limit:
		checkPrice("price", req.Price)
	case domain.StopLoss:
		checkPrice("stop_price", req.StopPrice)
	default:
		f["order_type"] = "Order type must be market, limit or stop_loss"
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, "symbol", "side", "quantity", "price", "stop_price", "order_type")
	}
	return nil
}

// takerPrice is where a market (or triggered stop) order fills: the ask for
// buys and the bid for sells, widened by the configured spread.
func (s *Sandbox) takerPrice(symbol string, side domain.Side) (decimal.Decimal, error) {
	t, err := s.prices.Ticker(symbol)
	if err != nil {
		return decimal.Zero, domain.Errorf(domain.EUnavailable, "No price for %s yet", symbol)
	}
	step := domain.PriceStepFor(symbol)
	if side == domain.Buy {
		return t.Ask.Mul(one.Add(s.opt.Spread)).Div(step).Ceil().Mul(step), nil
	}
	return t.Bid.Mul(one.Sub(s.opt.Spread)).Div(step).Floor().Mul(step), nil
}

// covers reports whether the account can take qty at price now, fees included.
func (c *change) covers(o domain.Order, qty, price, rate decimal.Decimal) bool {
	if o.Side == domain.Buy {
		need := qty.Mul(price).Mul(one.Add(rate))
		return c.balance("USD").Available.GreaterThanOrEqual(need)
	}
	return c.balance(base(o.Symbol)).Available.GreaterThanOrEqual(qty)
}

// PlaceOrder implements domain.Exchange.
func (s *Sandbox) PlaceOrder(ctx context.Context, req domain.OrderRequest) (domain.Order, error) {
	req.Symbol = strings.ToUpper(strings.TrimSpace(req.Symbol))
	if err := s.validate(req); err != nil {
		return domain.Order{}, err
	}
	s.mu.Lock()
	c, o, err := s.place(ctx, req)
	s.mu.Unlock()
	if err != nil {
		return domain.Order{}, err
	}
	s.tell(c)
	return o, nil
}

func (s *Sandbox) place(ctx context.Context, req domain.OrderRequest) (*change, domain.Order, error) {
	if req.ClientOrderID != "" {
		prev, err := s.store.LedgerOrderByClientID(ctx, req.ClientOrderID)
		if err == nil {
			return nil, prev, nil
		}
		if domain.ErrorCode(err) != domain.ENotFound {
			return nil, domain.Order{}, err
		}
	}
	c := s.begin()
	o := domain.Order{ID: uuid.NewString(), ClientOrderID: req.ClientOrderID, Symbol: req.Symbol, Side: req.Side, Type: req.Type,
		Quantity: req.Quantity, Price: req.Price, StopPrice: req.StopPrice, FilledQuantity: decimal.Zero, Fee: decimal.Zero,
		Status: domain.StatusPending, Strategy: req.Strategy, UserID: req.UserID, CreatedAt: c.now, UpdatedAt: c.now}

	rest := false
	switch o.Type {
	case domain.Market:
		px, err := s.takerPrice(o.Symbol, o.Side)
		if err != nil {
			return nil, domain.Order{}, err
		}
		if !c.covers(o, o.Quantity, px, s.opt.TakerFee) {
			return nil, domain.Order{}, domain.Errorf(domain.ERejected, MsgInsufficient)
		}
		c.fill(&o, o.Quantity, px, "taker")
	case domain.Limit:
		px, err := s.takerPrice(o.Symbol, o.Side)
		if err != nil {
			return nil, domain.Order{}, err
		}
		marketable := (o.Side == domain.Buy && o.Price.GreaterThanOrEqual(px)) || (o.Side == domain.Sell && o.Price.LessThanOrEqual(px))
		if marketable { // crosses the book now: fills at the book's price as a taker
			if !c.covers(o, o.Quantity, px, s.opt.TakerFee) {
				return nil, domain.Order{}, domain.Errorf(domain.ERejected, MsgInsufficient)
			}
			c.fill(&o, o.Quantity, px, "taker")
			break
		}
		if err := c.hold(&o); err != nil {
			return nil, domain.Order{}, err
		}
		rest = true
	case domain.StopLoss:
		t, err := s.prices.Ticker(o.Symbol)
		if err != nil {
			return nil, domain.Order{}, domain.Errorf(domain.EUnavailable, "No price for %s yet", o.Symbol)
		}
		if o.Side == domain.Sell && o.StopPrice.GreaterThanOrEqual(t.Price) {
			return nil, domain.Order{}, domain.FieldErrors(map[string]string{"stop_price": "Stop price must be below the current price for a SELL stop-loss"}, "stop_price")
		}
		if o.Side == domain.Buy && o.StopPrice.LessThanOrEqual(t.Price) {
			return nil, domain.Order{}, domain.FieldErrors(map[string]string{"stop_price": "Stop price must be above the current price for a BUY stop"}, "stop_price")
		}
		if err := c.hold(&o); err != nil {
			return nil, domain.Order{}, err
		}
		rest = true
	}
	if err := c.commit(ctx); err != nil {
		if domain.ErrorCode(err) == domain.EConflict && req.ClientOrderID != "" {
			if prev, e := s.store.LedgerOrderByClientID(ctx, req.ClientOrderID); e == nil {
				return nil, prev, nil
			}
		}
		return nil, domain.Order{}, err
	}
	if rest {
		s.rest(o)
	}
	return c, o, nil
}

// hold reserves what a resting order may need and opens it.
func (c *change) hold(o *domain.Order) error {
	remaining := o.Quantity.Sub(o.FilledQuantity)
	cur, amt := c.s.holdFor(*o, remaining)
	if cur != "" {
		if c.balance(cur).Available.LessThan(amt) {
			return domain.Errorf(domain.ERejected, MsgInsufficient)
		}
		c.adjust(cur, amt.Neg(), amt)
	}
	o.Status = domain.StatusOpen
	c.record(*o, nil)
	return nil
}

// release gives back what a resting order holds for its unfilled part.
func (c *change) release(o domain.Order) {
	if cur, amt := c.s.holdFor(o, o.Quantity.Sub(o.FilledQuantity)); cur != "" {
		c.adjust(cur, amt, amt.Neg())
	}
}

// live returns a pending or open order, or the error the API answers.
func (s *Sandbox) liveOrder(ctx context.Context, id string) (domain.Order, error) {
	if o, ok := s.live[id]; ok {
		return o, nil
	}
	o, err := s.store.LedgerOrder(ctx, id)
	if err != nil {
		return domain.Order{}, err
	}
	return o, domain.Errorf(domain.EConflict, "Order cannot be cancelled in status %s", o.Status)
}

// CancelOrder implements domain.Exchange.
func (s *Sandbox) CancelOrder(ctx context.Context, id string) (domain.Order, error) {
	s.mu.Lock()
	o, err := s.liveOrder(ctx, id)
	if err != nil {
		s.mu.Unlock()
		return domain.Order{}, err
	}
	c := s.begin()
	c.release(o)
	o.Status = domain.StatusCancelled
	c.record(o, nil)
	if err := c.commit(ctx); err != nil {
		s.mu.Unlock()
		return domain.Order{}, err
	}
	s.unrest(o)
	s.mu.Unlock()
	s.tell(c)
	return c.orders[0], nil
}

// ModifyOrder implements domain.Exchange: a new quantity and/or limit price
// for a pending or open limit order. The order loses its time priority.
func (s *Sandbox) ModifyOrder(ctx context.Context, id string, quantity, price *decimal.Decimal) (domain.Order, error) {
	if quantity == nil && price == nil {
		return domain.Order{}, domain.Errorf(domain.EInvalid, "Please provide at least one field to modify")
	}
	s.mu.Lock()
	c, err := s.modify(ctx, id, quantity, price)
	s.mu.Unlock()
	if err != nil {
		return domain.Order{}, err
	}
	s.tell(c)
	return c.orders[0], nil
}

func (s *Sandbox) modify(ctx context.Context, id string, quantity, price *decimal.Decimal) (*change, error) {
	o, ok := s.live[id]
	if !ok || o.Type != domain.Limit {
		if _, err := s.store.LedgerOrder(ctx, id); err != nil {
			return nil, err
		}
		return nil, domain.Errorf(domain.EConflict, "Only pending or open limit orders can be modified")
	}
	next := o
	if quantity != nil {
		next.Quantity = *quantity
	}
	if price != nil {
		next.Price = price
	}
	req := domain.OrderRequest{Symbol: next.Symbol, Side: next.Side, Type: next.Type, Quantity: next.Quantity, Price: next.Price}
	if err := s.validate(req); err != nil {
		return nil, err
	}
	if next.Quantity.LessThanOrEqual(o.FilledQuantity) {
		return nil, domain.FieldErrors(map[string]string{"quantity": "Quantity must be greater than the filled quantity " + o.FilledQuantity.String()}, "quantity")
	}
	c := s.begin()
	c.release(o)
	if err := c.hold(&next); err != nil {
		return nil, err
	}
	if err := c.commit(ctx); err != nil {
		return nil, err
	}
	s.unrest(o)
	s.rest(next)
	return c, nil
}

// tell passes committed changes to OnUpdate, outside the lock.
func (s *Sandbox) tell(c *change) {
	if c == nil || s.opt.OnUpdate == nil {
		return
	}
	for _, e := range c.events {
		s.opt.OnUpdate(e.order, e.fill)
	}
}

// OnTick matches the symbol's resting orders against a new price: limit
// orders fill at their limit (or better) as makers, stop orders trigger and
// fill at the book as takers. Only crossing orders are touched, each with
// O(log n) heap work; all of a tick's fills are stored in one transaction.
func (s *Sandbox) OnTick(ctx context.Context, t domain.Tick) error {
	s.mu.Lock()
	b := s.books[t.Symbol]
	if b == nil {
		s.mu.Unlock()
		return nil
	}
	type hit struct {
		bk *book
		e  *entry
	}
	var hits []hit
	for _, bk := range []*book{b.buyLimits, b.sellLimits, b.sellStops, b.buyStops} {
		for {
			e, ok := bk.crosses(t.Price)
			if !ok {
				break
			}
			bk.remove(e.id)
			hits = append(hits, hit{bk, e})
		}
	}
	if len(hits) == 0 {
		s.mu.Unlock()
		return nil
	}
	c := s.begin()
	var again []hit // partially filled orders go back into their book
	for _, h := range hits {
		o := s.live[h.e.id]
		remaining := o.Quantity.Sub(o.FilledQuantity)
		if o.Type == domain.Limit {
			qty := remaining
			if s.opt.MaxFillPerTick.IsPositive() && qty.GreaterThan(s.opt.MaxFillPerTick) {
				qty = s.opt.MaxFillPerTick
			}
			px := *o.Price
			if o.Side == domain.Buy && t.Price.LessThan(px) || o.Side == domain.Sell && t.Price.GreaterThan(px) {
				px = t.Price // the market gapped through the limit: the trader gets the better price
			}
			c.fill(&o, qty, px, "maker")
			if o.Status == domain.StatusOpen {
				again = append(again, h)
			}
			continue
		}
		px, err := s.takerPrice(o.Symbol, o.Side)
		if err != nil {
			again = append(again, h)
			continue
		}
		c.release(o) // a stop's sell hold (if any) is freed, then it fills as a market order
		o.Status = domain.StatusPending
		if !c.covers(o, remaining, px, s.opt.TakerFee) {
			o.Status = domain.StatusRejected
			o.RejectReason = MsgInsufficient
			c.record(o, nil)
			continue
		}
		c.fill(&o, remaining, px, "taker")
	}
	if err := c.commit(ctx); err != nil {
		for _, h := range hits { // nothing changed: re-arm every order
			h.bk.add(h.e.id, h.e.key, h.e.seq)
		}
		s.mu.Unlock()
		return err
	}
	for _, h := range again {
		if _, ok := s.live[h.e.id]; ok {
			h.bk.add(h.e.id, h.e.key, h.e.seq)
		}
	}
	s.mu.Unlock()
	s.tell(c)
	return nil
}

// Run matches every tick from the feed until ctx ends; errors go to onErr.
func (s *Sandbox) Run(ctx context.Context, ticks <-chan domain.Tick, onErr func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case t, ok := <-ticks:
			if !ok {
				return
			}
			if err := s.OnTick(ctx, t); err != nil && onErr != nil {
				onErr(err)
			}
		}
	}
}
