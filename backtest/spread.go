package backtest

import (
	"math/bits"

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
	if r.spread == nil {
		r.spread = newSpreadGrid(r.req.HalfSpread, r.priceStep())
	}
	if bid, ask, ok := r.spread.bidAsk(px); ok {
		return bid, ask
	}
	return market.BidAsk(px, r.req.HalfSpread, r.priceStep())
}

// spreadGrid is market.BidAsk in integers, for a half-spread of few
// decimals on a grid whose step is a power of ten (every shipped
// product's): px x (1 -+ half) is then exact at 8 + hs decimals, and its
// quotient by the step has at most 16 decimals, which decimal.Div gives
// exactly before Floor and Ceil. Anything else takes market.BidAsk.
type spreadGrid struct {
	ok        bool
	half      uint64 // the half-spread x 10^hs
	hs        int
	k         int   // the step is 10^-k
	d         int   // the quotient's decimals: 8 + hs - k
	stepCoef  int64 // the step as decimal holds it (the result's shape)
	stepExp   int32
	stepCoefN uint64
	// the last few prices quoted and their bid and ask (a candle's open is
	// quoted for sizing, the risk check and the engine; its close is often
	// the next open): decimals are values, so they are handed out again
	seen [4]quoted
	next int
}

type quoted struct {
	p        int64 // x 10^-8; 0: empty
	bid, ask decimal.Decimal
}

func newSpreadGrid(half, step decimal.Decimal) *spreadGrid {
	g := &spreadGrid{}
	if !half.IsPositive() || !step.IsPositive() || half.NumDigits() > 18 || step.NumDigits() > 18 || half.Exponent() > 0 {
		return g
	}
	g.hs, g.half = int(-half.Exponent()), uint64(half.CoefficientInt64())
	if g.hs > 10 || g.half >= pow10u[g.hs] {
		return g // more decimals than the integers hold, or a half-spread of 100% or more
	}
	g.stepCoef, g.stepExp = step.CoefficientInt64(), step.Exponent()
	c, k := uint64(g.stepCoef), int(-g.stepExp)
	for c%10 == 0 {
		c, k = c/10, k-1
	}
	if c != 1 {
		return g // not a power of ten
	}
	g.stepCoefN, g.k = uint64(g.stepCoef), k
	g.d = priceScale + g.hs - k
	g.ok = g.d >= 0 && g.d <= 16
	return g
}

// bidAsk is market.BidAsk(px, half, step); ok is false when px does not fit.
func (g *spreadGrid) bidAsk(px decimal.Decimal) (bid, ask decimal.Decimal, ok bool) {
	if !g.ok || !px.IsPositive() {
		return bid, ask, false
	}
	p, ok := fixedAt(px, priceScale)
	if !ok {
		return bid, ask, false
	}
	for i := range g.seen {
		if q := &g.seen[i]; q.p == p {
			return q.bid, q.ask, true
		}
	}
	nb, na, ok := g.steps(p)
	if !ok {
		return bid, ask, false
	}
	bid, ask = decimal.New(int64(nb*g.stepCoefN), g.stepExp), decimal.New(int64(na*g.stepCoefN), g.stepExp)
	g.seen[g.next] = quoted{p: p, bid: bid, ask: ask}
	g.next = (g.next + 1) % len(g.seen)
	return bid, ask, true
}

// steps are the bid and ask of a price p x 10^-8 in steps of the grid
// (10^-k each); ok is false when they do not fit.
func (g *spreadGrid) steps(p int64) (nb, na uint64, ok bool) {
	if !g.ok || p <= 0 {
		return 0, 0, false
	}
	// px and its half-spread at 8 + hs decimals
	ph, pl := bits.Mul64(uint64(p), pow10u[g.hs])
	hh, hl := bits.Mul64(uint64(p), g.half)
	lo, b := bits.Sub64(pl, hl, 0)
	hi, _ := bits.Sub64(ph, hh, b) // half < 1: no borrow out
	div := pow10u[g.d]
	if hi >= div {
		return 0, 0, false
	}
	nb, _ = bits.Div64(hi, lo, div) // floor
	lo, c := bits.Add64(pl, hl, 0)
	hi, c2 := bits.Add64(ph, hh, c)
	if c2 != 0 || hi >= div {
		return 0, 0, false
	}
	na, rem := bits.Div64(hi, lo, div)
	if rem != 0 {
		na++ // ceil
	}
	const lim = 1 << 62
	if na >= lim/g.stepCoefN {
		return 0, 0, false
	}
	return nb, na, true
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
