package backtest

import (
	"github.com/shopspring/decimal"

	market "kestrel/replay"
)

// priceStep is the product's price grid (a cent when unknown).
func (r *run) priceStep() decimal.Decimal {
	if s := r.req.Product.PriceIncrement; s.IsPositive() {
		return s
	}
	return decimal.New(1, -2)
}

// bidAsk quotes px as the live market does (market.BidAsk).
func (r *run) bidAsk(px decimal.Decimal) (bid, ask decimal.Decimal) {
	if !r.req.HalfSpread.IsPositive() {
		return px, px
	}
	return market.BidAsk(px, r.req.HalfSpread, r.priceStep())
}

// lastFor is the lowest price on the grid whose bid reaches limit: where a
// sell limit fills on the way up.
func (r *run) lastFor(limit decimal.Decimal) decimal.Decimal {
	h := r.req.HalfSpread
	if !h.IsPositive() {
		return limit
	}
	step := r.priceStep()
	px := limit.Div(decimal.NewFromInt(1).Sub(h)).Div(step).Ceil().Mul(step)
	for bid, _ := r.bidAsk(px); bid.LessThan(limit); bid, _ = r.bidAsk(px) {
		px = px.Add(step) // Div rounds: step up until the bid is there
	}
	return px
}
