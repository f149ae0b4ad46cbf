package backtest

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/strategy"
)

// The fast path (see the package doc): between events nothing can fill, so
// a candle with no pending signal, no working order and no resting order
// within its range skips the engine entirely and only marks equity, in
// exact fixed point. Every event (a signal, a trigger in range, the end)
// runs the general code on the decimal engine. Equity, its peak, the
// drawdown float and the curve's cents come out bit for bit as the decimal
// path computes them (fast_test.go compares whole results).

// heldScale is the decimals a quantity is kept in (the finest size step).
const heldScale = 8

var pow10u = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return
}()

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func (a u128) add(b u128) (u128, bool) {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c2 := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}, c2 == 0
}

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

func (a u128) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(a.lo))
}

// fixed is the fast path's state: cash and the base held at the engine's
// last event in fixed point, the resting orders' trigger bounds and the
// equity peak. Candle prices are read as integers at their exponent -p when
// needed; a price of another shape simply takes the general path.
type fixed struct {
	cs         []domain.Candle
	lazy       *lazy // the fixed-point bars, with Request.Bars
	bars       []bar // readBars
	e          int32 // the candles' exponent, -p
	p          int
	scale      int   // equity scale: heldScale + p
	cash       u128  // at scale
	held       int64 // at heldScale
	orders     bool  // resting orders exist
	fall, rise int64 // a falling price triggers at or below fall, a rising one at or above rise
	peak       u128
	peakF      float64
	last       u128 // the last equity marked, to reuse its float and cents
	lastF      float64
	lastCents  int64
	haveLast   bool
	// the last loss check of a flat account (see lossCheck)
	lossKey  lossKey
	lossMsg  string
	lossMemo bool
	// the day's start value (the risk check's), at scale, when it fits
	dayStart   u128
	dayStartOK bool
	consts     consts
}

// priceScale is the decimals the fast path reads candle prices in. Prices
// read from the store come with as many decimals as they were written with
// (63857.3 next to 63877.97), so each is rescaled to this one grid; a
// price with more decimals simply takes the general path.
const priceScale = 8

// newFixed returns the fast path's state, or nil without candles.
func newFixed(n int) *fixed {
	if n == 0 {
		return nil
	}
	return &fixed{e: -priceScale, p: priceScale, scale: heldScale + priceScale}
}

// price is a candle price as an integer x 10^-p, if it is one that fits
// (trailing zeros beyond p decimals are dropped).
func (f *fixed) price(d decimal.Decimal) (int64, bool) { return fixedAt(d, f.p) }

// fixedAt is d >= 0 as an integer x 10^-scale, if it is one that fits in
// 62 bits (trailing zeros beyond scale decimals are dropped).
func fixedAt(d decimal.Decimal, scale int) (int64, bool) {
	if d.Sign() < 0 || d.NumDigits() > 18 {
		return 0, false
	}
	c, e, want := d.CoefficientInt64(), d.Exponent(), int32(-scale)
	for ; e < want; e++ {
		if c%10 != 0 {
			return 0, false
		}
		c /= 10
	}
	for ; e > want; e-- {
		if c > (1<<62)/10 {
			return 0, false
		}
		c *= 10
	}
	return c, true
}

// bar is one candle read for the fast path: its prices as integers
// x 10^-p (-1 where a price is not of that shape: the candle then takes
// the general path) and its close as the strategy reads it. lo and hi, the
// lowest and highest of the four prices, are read when first needed
// (unread: lo is -2): only candles with resting orders ask.
type bar struct {
	open, close, lo, hi int64
	closeF              float64 // strategy.Float(Close)
}

// barPool keeps the bars of finished runs (a run's bars are as long as its
// candles; reusing them saves zeroing and collecting megabytes per run).
var barPool sync.Pool

// readBars reads every candle's close and open once, in one sequential
// pass (each decimal is a pointer to chase: in order they come from memory
// quickly, on demand each costs a cache miss). It returns nil when the
// replay would not see what Evaluate sees: without a warm-up candle (every
// window then starts afresh) or with times that do not strictly increase
// (Evaluate skips a candle whose time it has seen). With f nil (prices of
// no fixed shape) only closeF is set. putBars gives the bars back.
func readBars(cs []domain.Candle, n, warmup int, f *fixed, lz *lazy) []bar {
	if warmup < 1 {
		return nil
	}
	if lz != nil { // fixed-point bars: read where needed (open, close); the times are checked here
		for i := 1; i < n; i++ {
			if lz.bars[i].Time <= lz.bars[i-1].Time {
				return nil
			}
		}
		if f != nil {
			f.cs, f.lazy = cs, lz
		}
		return []bar{} // not nil: the fast path may run
	}
	var bars []bar
	if p, ok := barPool.Get().(*[]bar); ok && cap(*p) >= n {
		bars = (*p)[:n]
	} else {
		bars = make([]bar, n)
	}
	for i := range n {
		b := &bars[i]
		c := &cs[i]
		if i > 0 && !c.Time.After(cs[i-1].Time) {
			putBars(bars)
			return nil
		}
		b.open, b.close, b.lo, b.hi = -1, -1, -2, -1
		if f == nil {
			b.closeF = strategy.Float(c.Close)
			continue
		}
		px, ok := f.price(c.Close)
		if ok {
			b.close = px
		}
		if b.closeF, ok = strategy.FixedFloat(px, f.e); !ok || b.close < 0 {
			b.closeF = strategy.Float(c.Close) // another shape, or too many digits
		}
		if px, ok := f.price(c.Open); ok {
			b.open = px
		}
	}
	if f != nil {
		f.bars, f.cs, f.lazy = bars, cs, lz
	}
	return bars
}

func putBars(b []bar) {
	if len(b) > 0 {
		barPool.Put(&b)
	}
}

// open and close are candle t's prices x 10^-p (-1: not of that shape).
func (f *fixed) open(t int) int64 {
	if f.lazy != nil {
		return max(f.lazy.bars[t].Open, -1)
	}
	return f.bars[t].open
}

func (f *fixed) close(t int) int64 {
	if f.lazy != nil {
		return max(f.lazy.bars[t].Close, -1)
	}
	return f.bars[t].close
}

// closeF is candle t's close as the strategy reads it (strategy.Float):
// from the bars read, the fixed-point bars, or the candle.
func (r *run) closeF(bars []bar, t int) float64 {
	if len(bars) > 0 {
		return bars[t].closeF
	}
	if l := r.lazy; l != nil {
		if x, ok := strategy.FixedFloat(l.bars[t].Close, -barScale); ok {
			return x
		}
		return strategy.Float(decimal.New(l.bars[t].Close, -barScale))
	}
	return strategy.Float(r.req.Candles[t].Close)
}

// bounds reads candle t's lowest and highest price (-1, -1: one does not
// have the fixed shape).
func (f *fixed) bounds(t int) (lo, hi int64) {
	if f.lazy != nil { // the bars' integers, at the fast path's scale (Run checked)
		x := &f.lazy.bars[t]
		if x.Open < 0 || x.Close < 0 || x.Low < 0 || x.High < 0 {
			return -1, -1
		}
		return min(x.Low, x.High, x.Open, x.Close), max(x.Low, x.High, x.Open, x.Close)
	}
	b := &f.bars[t]
	if b.lo == -2 {
		c := &f.cs[t]
		b.lo, b.hi = 1<<62, -1
		for _, d := range [...]*decimal.Decimal{&c.High, &c.Low} {
			v, ok := f.price(*d)
			if !ok || b.open < 0 || b.close < 0 {
				b.lo, b.hi = -1, -1
				break
			}
			b.lo, b.hi = min(b.lo, v), max(b.hi, v)
		}
		if b.lo >= 0 {
			b.lo, b.hi = min(b.lo, b.open, b.close), max(b.hi, b.open, b.close)
		}
	}
	return b.lo, b.hi
}

// toScale is d as a non-negative integer x 10^-scale, if it is one that fits
// (more decimals than scale are fine when they are zeros: 10000.00000000
// is 1000000 cents).
func toScale(d decimal.Decimal, scale int) (u128, bool) {
	e := int(d.Exponent())
	if d.Sign() < 0 || d.NumDigits() > 18 {
		return u128{}, false
	}
	c := uint64(d.CoefficientInt64())
	for ; -e > scale; e++ {
		if c%10 != 0 {
			return u128{}, false
		}
		c /= 10
	}
	k := scale + e
	if k >= len(pow10u) {
		return u128{}, false
	}
	hi, lo := bits.Mul64(c, pow10u[k])
	return u128{hi, lo}, true
}

// sync reads cash, holdings and resting orders from the engine after an
// event; false when they do not fit the fixed point (the run then marks in
// decimal from here on).
func (f *fixed) sync(cash, held decimal.Decimal, eng *paper.Engine) bool {
	c, ok := toScale(cash, f.scale)
	if !ok {
		return false
	}
	h, ok := toScale(held, heldScale)
	if !ok || h.hi != 0 || h.lo > 1<<62 {
		return false
	}
	f.cash, f.held = c, int64(h.lo)
	f.orders = eng.LiveCount() > 0
	f.fall, f.rise = restBounds(eng, f.p)
	return true
}

// restBounds are the resting orders' trigger bounds at 10^-p: a falling
// price triggers one at or below fall, a rising one at or above rise
// (-1 and 1<<62 when nothing rests); with a trailing stop resting, or a
// price that does not fit, fall is 1<<62 and rise -1, so that no candle is
// quiet.
func restBounds(eng *paper.Engine, p int) (fall, rise int64) {
	fall, rise = -1, 1<<62
	comparable := true
	eng.EachLive(func(o *domain.Order) {
		if o.Type == domain.TrailingStop {
			// Its stop moves with every new high (low): no candle is quiet
			// while one rests, so every candle takes the general path.
			comparable = false
			return
		}
		px := o.Price
		if o.Type == domain.StopLoss {
			px = o.StopPrice
		}
		if px == nil || !comparable {
			return
		}
		v, ok := toScale(*px, p)
		if !ok || v.hi != 0 || v.lo > 1<<62 {
			comparable = false
			return
		}
		falling := o.Side == domain.Sell && o.Type == domain.StopLoss || o.Side == domain.Buy && o.Type != domain.StopLoss
		if falling {
			fall = max(fall, int64(v.lo))
		} else {
			rise = min(rise, int64(v.lo))
		}
	})
	if !comparable {
		return 1 << 62, -1 // not comparable: every candle takes the general path
	}
	return fall, rise
}

// quiet reports whether candle t can change nothing in the engine: no
// resting order's price lies within its range (inclusive, to be safe).
func (f *fixed) quiet(t int) bool {
	if !f.orders {
		return true
	}
	return f.within(t, f.fall, f.rise)
}

// within reports whether candle t's prices all lie strictly between fall
// and rise.
func (f *fixed) within(t int, fall, rise int64) bool {
	lo, hi := f.bounds(t)
	return lo >= 0 && lo > fall && hi < rise
}

// mark returns the equity at candle t's close (at f.scale), its drawdown
// below the peak as the decimal path computes it, and its value in cents;
// ok is false if it does not fit.
func (f *fixed) mark(t int) (cents int64, dd float64, ok bool) {
	px := f.close(t)
	if px < 0 {
		return 0, 0, false
	}
	hi, lo := bits.Mul64(uint64(f.held), uint64(px))
	eq, ok := f.cash.add(u128{hi, lo})
	if !ok {
		return 0, 0, false
	}
	if f.peak.less(eq) {
		f.peak = eq
		if f.peakF, ok = float(eq, f.scale); !ok {
			return 0, 0, false
		}
	}
	if eq != f.last || !f.haveLast {
		if f.lastF, ok = float(eq, f.scale); !ok {
			return 0, 0, false
		}
		// Round half away from zero (decimal.Round) to cents.
		div := pow10u[f.scale-2]
		r, carry := bits.Add64(eq.lo, div/2, 0)
		h := eq.hi + carry
		if h >= div {
			return 0, 0, false
		}
		q, _ := bits.Div64(h, r, div)
		if q > 1<<62 {
			return 0, 0, false
		}
		f.last, f.lastCents, f.haveLast = eq, int64(q), true
	}
	if f.peakF > 0 {
		dd = 1 - f.lastF/f.peakF
	}
	return f.lastCents, dd, true
}

// peakDecimal is the peak as the decimal path holds it (for the risk check).
func (f *fixed) peakDecimal() decimal.Decimal {
	return decimal.NewFromBigInt(f.peak.big(), int32(-f.scale))
}

// float is x x 10^-scale rounded to the nearest float64, as
// decimal.InexactFloat64 gives it: trailing decimal zeros are dropped, and
// once the integer is below 2^53 one IEEE division by an exact power of ten
// rounds the exact value once. Larger integers take big.Rat.
func float(x u128, scale int) (float64, bool) {
	if x.hi >= pow10u[8] {
		return 0, false
	}
	q, r := bits.Div64(x.hi, x.lo, pow10u[8])
	n, s := uint64(0), scale
	switch {
	case r == 0:
		n, s = q, scale-8
		for s > 0 && n%10 == 0 && n != 0 {
			n, s = n/10, s-1
		}
	default:
		z := 0
		for r%10 == 0 {
			r, z = r/10, z+1
		}
		h, l := bits.Mul64(q, pow10u[8-z])
		var c uint64
		l, c = bits.Add64(l, r, 0)
		if h != 0 || c != 0 {
			return decimal.NewFromBigInt(x.big(), int32(-scale)).InexactFloat64(), true
		}
		n, s = l, scale-z
	}
	if s < 0 || n >= 1<<53 || s > 22 {
		return decimal.NewFromBigInt(x.big(), int32(-scale)).InexactFloat64(), true
	}
	return float64(n) / pow10f[s], true
}

var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// centsOf is d in whole cents, if it is a whole number of cents that fits.
func centsOf(d decimal.Decimal) (int64, bool) {
	v, ok := toScale(d, 2)
	if !ok || v.hi != 0 || v.lo > 1<<62 {
		return 0, false
	}
	return int64(v.lo), true
}

// centStats is analytics.MaxDrawdown(...).InexactFloat64() and
// analytics.Returns of a series in cents, bit for bit: each ratio is
// rounded half away from zero to 16 decimals (decimal.Div) and then to the
// nearest float64. A ratio outside the integer range takes the decimal way.
func centStats(capital int64, curve []Point) (float64, []float64) {
	v := func(i int) int64 { // the series: the capital, then the curve
		if i == 0 {
			return capital
		}
		return int64(curve[i-1].Equity)
	}
	n := len(curve) + 1
	rets := make([]float64, 0, n-1)
	for i := 1; i < n; i++ {
		prev := v(i - 1)
		if prev <= 0 {
			continue
		}
		d, neg := v(i)-prev, false
		if d == 0 {
			rets = append(rets, 0) // unchanged: the ratio is exactly zero
			continue
		}
		if d < 0 {
			d, neg = -d, true
		}
		x, ok := ratio16(uint64(d), uint64(prev), neg)
		if !ok {
			a, b := decimal.New(v(i), -2), decimal.New(prev, -2)
			x = a.Sub(b).Div(b).InexactFloat64()
		}
		rets = append(rets, x)
	}
	// The worst (peak - v) / peak, compared exactly; rounding is monotonic,
	// so rounding the worst equals the worst of the rounded.
	var worstN, worstD uint64 = 0, 1
	peak := int64(0)
	for i := range n {
		x := v(i)
		if i == 0 || x > peak {
			peak = x
		}
		if peak <= 0 {
			continue
		}
		n := uint64(peak - x)
		h1, l1 := bits.Mul64(n, worstD)
		h2, l2 := bits.Mul64(worstN, uint64(peak))
		if (u128{h2, l2}).less(u128{h1, l1}) {
			worstN, worstD = n, uint64(peak)
		}
	}
	if worstN == 0 {
		return 0, rets
	}
	dd, ok := ratio16(worstN, worstD, false)
	if !ok {
		dd = decimal.New(int64(worstN), 0).Div(decimal.New(int64(worstD), 0)).InexactFloat64()
	}
	return dd, rets
}

// ratio16 is n/d rounded half away from zero to 16 decimals, then to the
// nearest float64 (negated when neg); ok is false when it does not fit.
func ratio16(n, d uint64, neg bool) (float64, bool) {
	hi, lo := bits.Mul64(n, pow10u[16])
	if hi >= d {
		return 0, false
	}
	q, rem := bits.Div64(hi, lo, d)
	if rem >= d-rem {
		q++
	}
	if q >= 1<<53 {
		return 0, false
	}
	x := float64(q) / 1e16
	if neg {
		x = -x
	}
	return x, true
}

// setDayStart keeps the day's start value in fixed point for the loss memo.
func (f *fixed) setDayStart(d decimal.Decimal) {
	f.dayStartOK = false
	if d.Sign() < 0 || -int(d.Exponent()) > f.scale {
		return
	}
	x := d.Shift(int32(f.scale)).BigInt()
	if x.BitLen() > 128 {
		return
	}
	lo := new(big.Int).And(x, new(big.Int).SetUint64(^uint64(0))).Uint64()
	f.dayStart, f.dayStartOK = u128{hi: new(big.Int).Rsh(x, 64).Uint64(), lo: lo}, true
}
