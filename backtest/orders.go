package backtest

import (
	"math/bits"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/trading"
)

const (
	msgNoPosition = "No position to sell (a spot account never goes short)"
	msgAtTarget   = "Position already at its target size"
)

// size is a BUY's quantity at price px, by the live engine's own sizing
// (strategy.BuyQuantity).
func (r *run) size(px decimal.Decimal) (decimal.Decimal, string) {
	step := r.req.Product.SizeIncrement
	if !step.IsPositive() {
		step = decimal.New(1, -8)
	}
	_, ask := r.bidAsk(px)               // a market BUY pays the ask, as live sizing divides by it
	paid := domain.Times(ask, r.slipped) // x (1 + slippage)
	held := domain.Times(r.balance(r.base).Total(), px)
	qty, _, atTarget := r.sizing.BuyQuantity(r.equity(px), held, paid, step) // strategy.BuyQuantity
	if atTarget {
		return decimal.Zero, msgAtTarget
	}
	if !qty.IsPositive() {
		return decimal.Zero, "Order size rounds to zero"
	}
	return qty, ""
}

// protect attaches the policy's stop-loss and take-profit to a BUY fill,
// one group, as the live gateway does.
func (r *run) protect(o domain.Order, ch paper.Change) {
	p := r.req.Policy
	if !p.StopLoss && !p.TakeProfit || !o.FilledQuantity.IsPositive() || o.AvgFillPrice == nil {
		return
	}
	step := r.req.Product.PriceIncrement
	fill := *o.AvgFillPrice
	group := "protect-" + o.ID
	base := domain.OrderRequest{Symbol: o.Symbol, Side: domain.Sell, Quantity: o.FilledQuantity, Strategy: o.Strategy, GroupID: group, ParentID: o.ID}
	if p.StopLoss && p.StopLossPercent.IsPositive() {
		stop, ok := onGrid(fill, r.below1, step, false)
		if !ok {
			stop = fill.Mul(decimal.NewFromInt(1).Sub(p.StopLossPercent)).Div(step).Floor().Mul(step)
		}
		req := base
		req.Type, req.StopPrice = domain.StopLoss, &stop
		if p.TrailingStop {
			req.Type, req.StopPrice, req.Trail = domain.TrailingStop, nil, trading.ProtectiveTrail(p)
		}
		r.placeProtective(req)
	}
	if p.TakeProfit && p.TakeProfitPercent.IsPositive() {
		limit, ok := onGrid(fill, r.above1, step, true)
		if !ok {
			limit = fill.Mul(decimal.NewFromInt(1).Add(p.TakeProfitPercent)).Div(step).Ceil().Mul(step)
		}
		req := base
		req.Type, req.Price = domain.Limit, &limit
		r.placeProtective(req)
	}
}

// onGrid is px x m on the grid of step, rounded down (up with ceil), as
// px.Mul(m).Div(step).Floor().Mul(step) (Ceil) makes it, value and shape,
// in 64-bit integers: for px, m >= 0 whose coefficients' product fits, and
// a step that is a power of ten (its coefficient, without trailing zeros,
// is 1), the quotient has at most 16 decimals, which Div keeps exactly.
// ok is false otherwise.
func onGrid(px, m, step decimal.Decimal, ceil bool) (decimal.Decimal, bool) {
	if px.Sign() < 0 || m.Sign() < 0 || !step.IsPositive() || px.NumDigits() > 18 || m.NumDigits() > 18 || step.NumDigits() > 18 {
		return decimal.Decimal{}, false
	}
	hi, lo := bits.Mul64(uint64(px.CoefficientInt64()), uint64(m.CoefficientInt64()))
	if hi != 0 || lo > 1<<62 {
		return decimal.Decimal{}, false
	}
	x, e := int64(lo), px.Exponent()+m.Exponent()
	sc, es := step.CoefficientInt64(), step.Exponent()
	for sc%10 == 0 {
		sc, es = sc/10, es+1
	}
	if sc != 1 {
		return decimal.Decimal{}, false
	}
	// x x 10^e / 10^es in whole steps
	var n int64
	switch d := es - e; {
	case d <= 0:
		for ; d < 0; d++ {
			if x > (1<<62)/10 {
				return decimal.Decimal{}, false
			}
			x *= 10
		}
		n = x
	case d <= 16:
		p := int64(pow10u[d])
		n = x / p
		if ceil && x%p != 0 {
			n++
		}
	default:
		return decimal.Decimal{}, false
	}
	c := step.CoefficientInt64()
	if n > (1<<62)/c {
		return decimal.Decimal{}, false
	}
	return decimal.New(n*c, step.Exponent()), true
}

// placeProtective places one protective order; like the live gateway it
// counts towards the day's trades unless the exchange rejects it.
func (r *run) placeProtective(req domain.OrderRequest) {
	o, c, err := r.engine().Place(r.now, req)
	if err != nil {
		return
	}
	if o.Status != domain.StatusRejected {
		r.trades.Placed(r.now)
	}
	r.book(c, "")
}

// sellAll cancels the protective orders and sells the whole position at
// market (the current quote), within the volume cap of candle c (at the end
// of the data there is no cap: everything is sold at the last close). It
// returns why nothing was sold, or "".
func (r *run) sellAll(reason string, c domain.Candle) string {
	for _, o := range r.engine().LiveOrders() {
		if o.Side == domain.Sell {
			r.engine().Cancel(r.now, o.ID, "closing the position")
		}
	}
	qty := r.balance(r.base).Available
	if !qty.IsPositive() {
		return msgNoPosition
	}
	r.trades.Placed(r.now)
	why := r.market(domain.Sell, qty, reason, c)
	if why != "" {
		r.trades.Unplaced(r.now) // as the gateway: an order the exchange refuses does not count
	}
	return why
}

// closeOut sells what is still held at the last close (end of data).
func (r *run) closeOut(last domain.Candle) {
	r.now = last.Time
	r.quote(last.Close, &last)
	if r.balance(r.base).Total().IsPositive() {
		r.req.VolumeCap = decimal.Zero
		r.sellAll("end_of_data", last)
	}
	if n := len(r.curve); n > 0 {
		r.curve[n-1].Equity = cents(r.equity(last.Close))
	}
}
