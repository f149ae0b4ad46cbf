package backtest

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
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

// protect attaches the policy's protective orders to a BUY fill, one group,
// by the live gateway's rule (trading.ProtectiveOrders). A backtest's
// order fills in one piece, so the order is its fill.
func (r *run) protect(o domain.Order) {
	if !o.FilledQuantity.IsPositive() || o.AvgFillPrice == nil {
		return
	}
	reqs := trading.ProtectiveOrders(r.prot, trading.ProtectiveFill{Parent: o, Key: o.ID, Price: *o.AvgFillPrice,
		Quantity: o.FilledQuantity, Free: r.balance(r.base).Available, Step: r.req.Product.PriceIncrement})
	for _, req := range reqs {
		r.placeProtective(req)
	}
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
