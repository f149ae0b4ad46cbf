package replay

import (
	"math"
	"strconv"

	"github.com/shopspring/decimal"
)

// grid rounds path points to a price increment. A walk rounds 901 floats,
// and doing it with decimals (from the float, divide, round, multiply) cost
// most of the time a backtest spends generating the 1- and 5-minute
// candles of a year; this gives the same decimals with integer arithmetic.
type grid struct {
	tick decimal.Decimal
	k    int32 // tick = 10^-k; -1: not a power of ten (the decimal way is used)
}

func newGrid(tick decimal.Decimal) grid {
	g := grid{tick: tick, k: -1}
	if c := tick.Coefficient(); c.IsInt64() && c.Int64() == 1 && tick.Exponent() <= 0 && tick.Exponent() >= -18 {
		g.k = -tick.Exponent()
	}
	return g
}

// round is decimal.NewFromFloat(x).Div(tick).Round(0).Mul(tick) for x >= 0.
func (g grid) round(x float64) decimal.Decimal {
	if n, ok := g.ticks(x); ok {
		return decimal.New(n, -g.k)
	}
	return decimal.NewFromFloat(x).Div(g.tick).Round(0).Mul(g.tick)
}

// ticks is x in whole ticks, rounded half away from zero from x's shortest
// decimal form (the digits NewFromFloat keeps); false when that does not fit
// the fast path.
func (g grid) ticks(x float64) (int64, bool) {
	if g.k < 0 || x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'e', -1, 64) // d.ddde±XX, as NewFromFloat reads it
	var mant int64
	nd, i := 0, 0
	for ; b[i] != 'e'; i++ {
		if b[i] != '.' {
			mant = mant*10 + int64(b[i]-'0')
			nd++
		}
	}
	e, _ := strconv.Atoi(string(b[i+1:]))
	// x = mant x 10^(e-nd+1); in ticks, x x 10^k.
	p := e - nd + 1 + int(g.k)
	switch {
	case p >= 0:
		if p > 18 || mant > math.MaxInt64/pow10[p] {
			return 0, false
		}
		return mant * pow10[p], true
	case -p > 18:
		return 0, true // below a tenth of a tick (mant < 10^18)
	default:
		q, r := mant/pow10[-p], mant%pow10[-p]
		if 2*r >= pow10[-p] { // half away from zero
			q++
		}
		return q, true
	}
}

var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()
