package sandbox

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// change collects one state change on copies of the account; commit stores it
// in one transaction and only then makes it the sandbox's state.
type change struct {
	s         *Sandbox
	now       time.Time
	balances  map[string]domain.Balance
	positions map[string]domain.PositionBook
	orders    []domain.Order
	fills     []domain.Fill
	events    []event
}

type event struct {
	order domain.Order
	fill  *domain.Fill
}

func (s *Sandbox) begin() *change {
	return &change{s: s, now: s.opt.Clock.Now(), balances: map[string]domain.Balance{}, positions: map[string]domain.PositionBook{}}
}

func (c *change) balance(cur string) domain.Balance {
	if b, ok := c.balances[cur]; ok {
		return b
	}
	if b, ok := c.s.balances[cur]; ok {
		return b
	}
	return domain.Balance{Currency: cur, Available: decimal.Zero, Hold: decimal.Zero}
}

func (c *change) position(sym string) domain.PositionBook {
	if p, ok := c.positions[sym]; ok {
		return p
	}
	if p, ok := c.s.positions[sym]; ok {
		return p
	}
	return domain.PositionBook{Symbol: sym, Quantity: decimal.Zero, Cost: decimal.Zero, Realized: decimal.Zero}
}

// adjust moves amounts on a balance: available += dAvail, hold += dHold.
func (c *change) adjust(cur string, dAvail, dHold decimal.Decimal) {
	b := c.balance(cur)
	b.Available = b.Available.Add(dAvail)
	b.Hold = b.Hold.Add(dHold)
	c.balances[cur] = b
}

// record notes the order's new state (and its fill) for storing and telling.
func (c *change) record(o domain.Order, f *domain.Fill) {
	o.UpdatedAt = c.now
	for i := range c.orders {
		if c.orders[i].ID == o.ID {
			c.orders[i] = o
			c.events = append(c.events, event{o, f})
			return
		}
	}
	c.orders = append(c.orders, o)
	c.events = append(c.events, event{o, f})
}

// commit stores the change and adopts it as the sandbox's state.
func (c *change) commit(ctx context.Context) error {
	lc := domain.LedgerChange{Orders: c.orders, Fills: c.fills}
	for _, b := range c.balances {
		lc.Balances = append(lc.Balances, b)
	}
	for _, p := range c.positions {
		lc.Positions = append(lc.Positions, p)
	}
	if err := c.s.store.ApplyLedger(ctx, lc); err != nil {
		return err
	}
	for k, b := range c.balances {
		c.s.balances[k] = b
	}
	for k, p := range c.positions {
		c.s.positions[k] = p
	}
	for _, o := range c.orders {
		if o.Status.Live() {
			c.s.live[o.ID] = o
		} else {
			delete(c.s.live, o.ID)
		}
	}
	return nil
}

// holdFor is what a resting order reserves for qty: USD for buy limits
// (at the limit price plus the maker fee), the base currency for sells.
func (s *Sandbox) holdFor(o domain.Order, qty decimal.Decimal) (string, decimal.Decimal) {
	switch {
	case o.Side == domain.Sell:
		return base(o.Symbol), qty
	case o.Type == domain.Limit:
		return "USD", qty.Mul(*o.Price).Mul(decimal.NewFromInt(1).Add(s.opt.MakerFee))
	}
	return "", decimal.Zero // buy stops reserve nothing; funds are checked on trigger
}

// fill executes qty of o at price, moving balances, position and the order.
func (c *change) fill(o *domain.Order, qty, price decimal.Decimal, liquidity string) domain.Fill {
	rate := c.s.opt.TakerFee
	if liquidity == "maker" {
		rate = c.s.opt.MakerFee
	}
	notional := qty.Mul(price)
	fee := notional.Mul(rate).Round(8)
	if cur, held := c.s.holdFor(*o, qty); cur != "" && o.Status == domain.StatusOpen {
		c.adjust(cur, held, held.Neg()) // release this quantity's hold first
	}
	b, p := base(o.Symbol), c.position(o.Symbol)
	if o.Side == domain.Buy {
		c.adjust("USD", notional.Add(fee).Neg(), decimal.Zero)
		c.adjust(b, qty, decimal.Zero)
		p.Quantity = p.Quantity.Add(qty)
		p.Cost = p.Cost.Add(notional).Add(fee)
	} else {
		c.adjust(b, qty.Neg(), decimal.Zero)
		c.adjust("USD", notional.Sub(fee), decimal.Zero)
		costSold := p.Cost
		if qty.LessThan(p.Quantity) {
			costSold = p.Cost.Mul(qty).Div(p.Quantity).Round(8)
		}
		p.Realized = p.Realized.Add(notional.Sub(fee).Sub(costSold))
		p.Cost = p.Cost.Sub(costSold)
		p.Quantity = p.Quantity.Sub(qty)
	}
	c.positions[o.Symbol] = p

	prevFilled := o.FilledQuantity
	o.FilledQuantity = o.FilledQuantity.Add(qty)
	avg := price
	if o.AvgFillPrice != nil {
		avg = o.AvgFillPrice.Mul(prevFilled).Add(notional).Div(o.FilledQuantity).Round(8)
	}
	o.AvgFillPrice = &avg
	o.Fee = o.Fee.Add(fee)
	if o.FilledQuantity.Equal(o.Quantity) {
		o.Status = domain.StatusFilled
	} else {
		o.Status = domain.StatusOpen
	}
	f := domain.Fill{ID: uuid.NewString(), OrderID: o.ID, Symbol: o.Symbol, Side: o.Side, Quantity: qty, Price: price, Fee: fee,
		Liquidity: liquidity, Strategy: o.Strategy, Time: c.now}
	c.fills = append(c.fills, f)
	c.record(*o, &f)
	return f
}
