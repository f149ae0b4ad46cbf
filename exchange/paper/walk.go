package paper

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// MsgBookExhausted is the reason a market order's unfilled rest is
// cancelled: the published book held less than its size.
const MsgBookExhausted = "Cancelled: the book held less than the order's size; the rest was not filled"

// depth is the side of symbol's last quoted book a market order on side
// takes from (the asks for a BUY), best first; empty when none was quoted.
func (e *Engine) depth(symbol string, side domain.Side) []Level {
	q, ok := e.quotes[symbol]
	if !ok {
		return nil
	}
	if side == domain.Buy {
		return q.Asks
	}
	return q.Bids
}

// liquid is levels without the empty or unpriced ones a book can carry.
func liquid(levels []Level) []Level {
	out := levels[:0:0]
	for _, l := range levels {
		if l.Size.IsPositive() && l.Price.IsPositive() {
			out = append(out, l)
		}
	}
	return out
}

// walk fills a market order level by level down the book, as a taker: each
// level fills at its own price for at most its size, so a size larger than
// the best level pays the next levels' prices (price impact). What the book
// cannot fill is cancelled, as an immediate-or-cancel order's rest is. The
// whole walk must be covered, fees included, or nothing fills.
func (t *tx) walk(o *domain.Order, levels []Level) error {
	type take struct{ qty, px decimal.Decimal }
	var plan []take
	left, cost, qty := o.Remaining(), decimal.Zero, decimal.Zero
	for _, l := range levels {
		if !left.IsPositive() {
			break
		}
		if !l.Size.IsPositive() || !l.Price.IsPositive() {
			continue
		}
		n := decimal.Min(left, l.Size)
		plan = append(plan, take{n, l.Price})
		cost, qty, left = cost.Add(n.Mul(l.Price)), qty.Add(n), left.Sub(n)
	}
	if len(plan) == 0 {
		return domain.Errorf(domain.EUnavailable, "No %s liquidity in the %s book", map[domain.Side]string{domain.Buy: "ask", domain.Sell: "bid"}[o.Side], o.Symbol)
	}
	if o.Side == domain.Buy {
		if t.balance(domain.Quote(o.Symbol)).Available.LessThan(cost.Mul(one.Add(t.e.cfg.TakerFee))) {
			return rejected(MsgInsufficient)
		}
	} else if !t.covers(*o, qty, decimal.Zero, t.e.cfg.TakerFee) {
		return rejected(MsgInsufficient)
	}
	for _, p := range plan {
		t.fill(o, p.qty, p.px, "taker")
	}
	if o.Remaining().IsPositive() {
		o.Status, o.RejectReason = domain.StatusCancelled, MsgBookExhausted
		t.record(*o, nil)
	}
	return nil
}
