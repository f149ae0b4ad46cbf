package paper

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Change is what one command or quote changed, in the order it happened.
type Change struct {
	Orders    []domain.Order        // new states (each order once, its last state)
	Fills     []domain.Fill         // new fills
	Balances  []domain.Balance      // new full values of the currencies touched
	Positions []domain.PositionBook // new full values of the books touched
	Updates   []domain.TradeUpdate  // every order state change with its fill, in order
}

// Empty reports whether nothing changed.
func (c Change) Empty() bool {
	return len(c.Orders) == 0 && len(c.Balances) == 0 && len(c.Positions) == 0
}

// Ledger is the change as the store journals it.
func (c Change) Ledger() domain.LedgerChange {
	return domain.LedgerChange{Orders: c.Orders, Fills: c.Fills, Balances: c.Balances, Positions: c.Positions}
}

// tx collects one change on copies of the state; apply adopts it. Nothing
// touches the engine until apply, so a refused command changes nothing. A
// change touches a few currencies, books and orders: they are kept in
// slices in the order first touched (no maps to make), and the engine
// reuses one tx's slices from change to change (begin).
type tx struct {
	e         *Engine
	now       time.Time
	balances  []domain.Balance      // first-touched order
	positions []domain.PositionBook // first-touched order
	orders    []domain.Order        // first-touched order
	fills     []domain.Fill
	updates   []domain.TradeUpdate
}

func (e *Engine) begin(now time.Time) *tx {
	t := &e.scratch
	*t = tx{e: e, now: now, balances: t.balances[:0], positions: t.positions[:0], orders: t.orders[:0]}
	return t
}

// bal is the index of currency cur's balance in this change, or -1.
func (t *tx) bal(cur string) int {
	for i := range t.balances {
		if t.balances[i].Currency == cur {
			return i
		}
	}
	return -1
}

// pos is the index of symbol sym's book in this change, or -1.
func (t *tx) pos(sym string) int {
	for i := range t.positions {
		if t.positions[i].Symbol == sym {
			return i
		}
	}
	return -1
}

// ord is the index of order id in this change, or -1.
func (t *tx) ord(id string) int {
	for i := range t.orders {
		if t.orders[i].ID == id {
			return i
		}
	}
	return -1
}

// touched is order id's state in this change.
func (t *tx) touched(id string) (domain.Order, bool) {
	if i := t.ord(id); i >= 0 {
		return t.orders[i], true
	}
	return domain.Order{}, false
}

func (t *tx) balance(cur string) domain.Balance {
	if i := t.bal(cur); i >= 0 {
		return t.balances[i]
	}
	if b, ok := t.e.balances[cur]; ok {
		return b
	}
	return domain.Balance{Currency: cur, Available: decimal.Zero, Hold: decimal.Zero}
}

// adjust moves amounts on a balance: available += dAvail, hold += dHold.
func (t *tx) adjust(cur string, dAvail, dHold decimal.Decimal) {
	i := t.bal(cur)
	if i < 0 {
		t.balances = append(t.balances, t.balance(cur))
		i = len(t.balances) - 1
	}
	b := &t.balances[i]
	b.Available = domain.Plus(b.Available, dAvail)
	b.Hold = domain.Plus(b.Hold, dHold)
}

func (t *tx) position(sym string) domain.PositionBook {
	if i := t.pos(sym); i >= 0 {
		return t.positions[i]
	}
	if p, ok := t.e.positions[sym]; ok {
		return p
	}
	return domain.NewPositionBook(sym)
}

// current is an order's state in this change (or the engine's).
func (t *tx) current(id string) (domain.Order, bool) {
	if o, ok := t.touched(id); ok {
		return o, o.Status.Live()
	}
	o, ok := t.e.live[id]
	return o, ok
}

// record notes an order's new state (with its fill) for storing and telling.
func (t *tx) record(o domain.Order, f *domain.Fill) {
	o.UpdatedAt = t.now
	t.put(o)
	if !t.e.cfg.NoUpdates {
		t.updates = append(t.updates, domain.TradeUpdate{Order: o, Fill: f})
	}
}

// put sets order o's state in this change.
func (t *tx) put(o domain.Order) {
	if i := t.ord(o.ID); i >= 0 {
		t.orders[i] = o
		return
	}
	t.orders = append(t.orders, o)
}

// apply adopts the change as the engine's state and returns it.
func (t *tx) apply() Change {
	e := t.e
	var c Change
	if len(t.balances) > 0 {
		c.Balances = make([]domain.Balance, len(t.balances))
		copy(c.Balances, t.balances)
	}
	for _, b := range t.balances {
		e.balances[b.Currency] = b
	}
	if len(t.positions) > 0 {
		c.Positions = make([]domain.PositionBook, len(t.positions))
		copy(c.Positions, t.positions)
	}
	for _, p := range t.positions {
		e.positions[p.Symbol] = p
	}
	if len(t.orders) > 0 {
		c.Orders = make([]domain.Order, 0, len(t.orders))
	}
	for _, o := range t.orders {
		id := o.ID
		prev, was := e.live[id]
		if was {
			e.untrack(prev)
		}
		if o.Status.Live() {
			e.track(o)
		}
		switch {
		case o.Status.Live() && (!was || domain.Cmp(key(prev), key(o)) != 0):
			if was {
				e.unrest(prev)
			}
			e.live[id] = o
			e.rest(o)
		case o.Status.Live():
			e.live[id] = o
		case was:
			e.unrest(prev)
			delete(e.live, id)
		}
		c.Orders = append(c.Orders, o)
	}
	c.Fills, c.Updates = t.fills, t.updates
	return c
}

// holdFor is what a resting order reserves for qty at the current fees.
func (e *Engine) holdFor(o domain.Order, qty decimal.Decimal) decimal.Decimal {
	switch o.HoldCurrency() {
	case "":
		return decimal.Zero
	case domain.Base(o.Symbol):
		return qty
	}
	return domain.Times(domain.Times(qty, *o.Price), domain.Plus(one, e.cfg.MakerFee))
}

// HoldFor is the hold an order written before holds were stored would have
// taken at the current fees (used once, when loading such an order).
func (e *Engine) HoldFor(o domain.Order) decimal.Decimal { return e.holdFor(o, o.Remaining()) }

// hold reserves what a resting order needs and opens it; an order in a
// group shares the group's hold (see regroup).
func (t *tx) hold(o *domain.Order) error {
	o.Status = domain.StatusOpen
	if o.GroupID != "" {
		t.record(*o, nil)
		return t.regroup(o.GroupID)
	}
	amt := t.e.holdFor(*o, o.Remaining())
	if cur := o.HoldCurrency(); cur != "" {
		if domain.Cmp(t.balance(cur).Available, amt) < 0 {
			return rejected(MsgInsufficient)
		}
		t.adjust(cur, domain.Neg(amt), amt)
	}
	o.Hold = amt
	t.record(*o, nil)
	return nil
}

// release gives back all an order still holds.
func (t *tx) release(o *domain.Order) {
	if cur := o.HoldCurrency(); cur != "" && !o.Hold.IsZero() {
		t.adjust(cur, o.Hold, domain.Neg(o.Hold))
	}
	o.Hold = decimal.Zero
}

// groupMembers are the live orders of a group as of this change: the
// engine's (oldest first) and then the ones this change added.
func (t *tx) groupMembers(group string) []domain.Order {
	var out []domain.Order
	for _, o := range t.e.groupLive(group) {
		if c, ok := t.touched(o.ID); ok {
			o = c
		}
		if o.Status.Live() {
			out = append(out, o)
		}
	}
	for _, o := range t.orders {
		if o.GroupID == group && o.Status.Live() {
			if _, old := t.e.live[o.ID]; !old {
				out = append(out, o)
			}
		}
	}
	return out
}

// regroup makes a group hold the base quantity once: the largest remaining
// quantity of its live members, held by its oldest member.
func (t *tx) regroup(group string) error {
	members := t.groupMembers(group)
	need, have := decimal.Zero, decimal.Zero
	for _, m := range members {
		need = decimal.Max(need, m.Remaining())
		have = domain.Plus(have, m.Hold)
	}
	if len(members) == 0 {
		return nil
	}
	cur := members[0].HoldCurrency()
	if d := domain.Minus(need, have); d.IsPositive() && domain.Cmp(t.balance(cur).Available, d) < 0 {
		return rejected(MsgInsufficient)
	}
	t.adjust(cur, domain.Minus(have, need), domain.Minus(need, have))
	for i, m := range members {
		h := decimal.Zero
		if i == 0 {
			h = need
		}
		if domain.Cmp(m.Hold, h) != 0 {
			m.Hold, m.UpdatedAt = h, t.now
			t.put(m)
		}
	}
	return nil
}

// cancelSiblings cancels the other live members of o's group (one filled)
// and reports whether there were any.
func (t *tx) cancelSiblings(o domain.Order) bool {
	if o.GroupID == "" {
		return false
	}
	any := false
	for _, m := range t.groupMembers(o.GroupID) {
		if m.ID == o.ID {
			continue
		}
		t.release(&m)
		m.Status = domain.StatusCancelled
		m.RejectReason = "Cancelled: the other order of its group (" + o.ID + ") filled"
		t.record(m, nil)
		any = true
	}
	return any
}

// fill executes qty of o at price, moving balances, position and the order.
func (t *tx) fill(o *domain.Order, qty, price decimal.Decimal, liquidity string) {
	rate := t.e.cfg.TakerFee
	if liquidity == "maker" {
		rate = t.e.cfg.MakerFee
	}
	if t.cancelSiblings(*o) && o.Status == domain.StatusOpen {
		// The group's hold went back with the siblings: this order now holds
		// what its own remainder needs.
		need := t.e.holdFor(*o, o.Remaining())
		d := domain.Minus(need, o.Hold)
		t.adjust(o.HoldCurrency(), domain.Neg(d), d)
		o.Hold = need
	}
	if cur := o.HoldCurrency(); cur != "" && o.Status == domain.StatusOpen && !o.Hold.IsZero() {
		// Release this quantity's share of the stored hold; the last fill releases the rest.
		part := o.Hold
		if domain.Cmp(qty, o.Remaining()) < 0 {
			part = o.Hold.Mul(qty).Div(o.Remaining()).Round(8)
		}
		t.adjust(cur, part, domain.Neg(part))
		o.Hold = domain.Minus(o.Hold, part)
	}
	notional := domain.Times(qty, price)
	fee := domain.Round(domain.Times(notional, rate), 8)
	base, quote := domain.Base(o.Symbol), domain.Quote(o.Symbol)
	if o.Side == domain.Buy {
		t.adjust(quote, domain.Neg(domain.Plus(notional, fee)), decimal.Zero)
		t.adjust(base, qty, decimal.Zero)
	} else {
		t.adjust(base, domain.Neg(qty), decimal.Zero)
		t.adjust(quote, domain.Minus(notional, fee), decimal.Zero)
	}
	f := domain.Fill{ID: t.e.newID("f"), OrderID: o.ID, Symbol: o.Symbol, Side: o.Side, Quantity: qty, Price: price, Fee: fee,
		Liquidity: liquidity, Strategy: o.Strategy, Time: t.now}
	if i := t.pos(o.Symbol); i >= 0 {
		t.positions[i] = t.positions[i].Apply(f)
	} else {
		t.positions = append(t.positions, t.position(o.Symbol).Apply(f))
	}

	prevFilled := o.FilledQuantity
	o.FilledQuantity = domain.Plus(o.FilledQuantity, qty)
	avg := price
	if o.AvgFillPrice != nil {
		avg = o.AvgFillPrice.Mul(prevFilled).Add(notional).Div(o.FilledQuantity).Round(8)
	}
	o.AvgFillPrice = &avg
	o.Fee = domain.Plus(o.Fee, fee)
	if domain.Cmp(o.FilledQuantity, o.Quantity) == 0 {
		o.Status = domain.StatusFilled
		o.Hold = decimal.Zero
	} else {
		o.Status = domain.StatusOpen
	}
	t.fills = append(t.fills, f)
	t.record(*o, &f)
}

var one = decimal.NewFromInt(1)

func rejected(msg string) error { return &domain.Error{Code: domain.ERejected, Message: msg} }
