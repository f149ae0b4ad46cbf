package backtest

import (
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/strategy"
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
	_, ask := r.bidAsk(px) // a market BUY pays the ask, as live sizing divides by it
	paid := ask.Mul(decimal.NewFromInt(1).Add(r.req.SlippageBps.Div(decimal.NewFromInt(10000))))
	held := r.balance(r.base).Total().Mul(px)
	qty, _, atTarget := strategy.BuyQuantity(r.req.Config, r.req.Policy.Limits, r.equity(px), held, paid, step)
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
	group := fmt.Sprintf("protect-%s", o.ID)
	base := domain.OrderRequest{Symbol: o.Symbol, Side: domain.Sell, Quantity: o.FilledQuantity, Strategy: o.Strategy, GroupID: group, ParentID: o.ID}
	if p.StopLoss && p.StopLossPercent.IsPositive() {
		stop := fill.Mul(decimal.NewFromInt(1).Sub(p.StopLossPercent)).Div(step).Floor().Mul(step)
		req := base
		req.Type, req.StopPrice = domain.StopLoss, &stop
		if p.TrailingStop {
			req.Type, req.StopPrice, req.Trail = domain.TrailingStop, nil, trading.ProtectiveTrail(p)
		}
		r.placeProtective(req)
	}
	if p.TakeProfit && p.TakeProfitPercent.IsPositive() {
		limit := fill.Mul(decimal.NewFromInt(1).Add(p.TakeProfitPercent)).Div(step).Ceil().Mul(step)
		req := base
		req.Type, req.Price = domain.Limit, &limit
		r.placeProtective(req)
	}
}

// placeProtective places one protective order; like the live gateway it
// counts towards the day's trades unless the exchange rejects it.
func (r *run) placeProtective(req domain.OrderRequest) {
	o, c, err := r.eng.Place(r.now, req)
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
	for _, o := range r.eng.LiveOrders() {
		if o.Side == domain.Sell {
			r.eng.Cancel(r.now, o.ID, "closing the position")
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
	r.quote(last.Close)
	if r.balance(r.base).Total().IsPositive() {
		r.req.VolumeCap = decimal.Zero
		r.sellAll("end_of_data", last)
	}
	if n := len(r.curve); n > 0 {
		r.curve[n-1].Equity = cents(r.equity(last.Close))
	}
}
