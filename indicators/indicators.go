// Package indicators computes technical indicators over closing prices. They
// are statistics, so float64 is fine here (money stays decimal elsewhere).
// Each streaming type updates in O(1) (Bollinger's deviation in O(period),
// see Bollinger); the *Series helpers return one value per input, NaN until
// the indicator has enough data. Every reading is a function of the values
// it covers (SMA, Bollinger) or settles to one (EMA, RSI, MACD: see
// strategy.Indicators.Warmup), never of how long the stream has run.
package indicators

import (
	"math"
	"math/bits"
)

// SMA is a simple moving average over n values. Its sum is a function of
// the last n values alone, never of how long the stream has run (a running
// float sum carries the rounding of every value it ever added and removed,
// so its last bits, and an SMA cross decided on equal-looking averages,
// would depend on the stream's age): it is kept exactly, in integers, each
// value rounded to a multiple of 2^-30 (about 1e-9, far below any price's
// increment); a window holding a value too large for that (above 2^62 /
// 2^30 / n: 21 million for a 200-period SMA) is summed afresh, oldest
// first, instead.
type SMA struct {
	n int
	// buf holds each value twice, at i and i+n, so the window oldest first
	// is always the contiguous buf[i:i+n] (no wrap to handle when summing).
	buf []float64
	// fx holds each value of the window in fixed point at its place in
	// buf[:n] (noFit: too large), so a leaving value is not converted again.
	fx    []int64
	lim   float64 // the largest magnitude in fixed point n values can sum to
	i     int
	count int
	sum   float64
	fixed int64 // the window's sum in units of 2^-30, of the values that fit
	big   int   // values in the window that do not fit
}

// grid is the fixed-point unit of SMA sums: 2^30 per 1.
const grid = 1 << 30

// noFit marks a value too large for the fixed point.
const noFit = math.MinInt64

// NewSMA returns an n-period simple moving average.
func NewSMA(n int) *SMA {
	return &SMA{n: n, buf: make([]float64, 2*n), fx: make([]int64, n), lim: float64(int64(1)<<62) / float64(n)}
}

// fixedOf is x in units of 2^-30, or noFit when n of them could overflow a sum.
func (s *SMA) fixedOf(x float64) int64 {
	y := x * grid               // exact: a power of two
	if !(math.Abs(y) < s.lim) { // NaN too
		return noFit
	}
	return int64(math.Round(y))
}

// Update adds x and returns the average (NaN until n values were seen).
func (s *SMA) Update(x float64) float64 {
	s.push(x, s.fixedOf(x))
	return s.Value()
}

// push adds x, whose fixed point is f, and returns the fixed point of the
// value that left the window (noFit too when none left).
func (s *SMA) push(x float64, f int64) (left int64) {
	left = noFit
	if s.count == s.n { // the oldest value leaves
		if left = s.fx[s.i]; left != noFit {
			s.fixed -= left
		} else {
			s.big--
		}
	} else {
		s.count++
	}
	if f != noFit {
		s.fixed += f
	} else {
		s.big++
	}
	s.buf[s.i], s.buf[s.i+s.n], s.fx[s.i] = x, x, f
	if s.i++; s.i == s.n { // not %: a division on every value
		s.i = 0
	}
	if s.count == s.n {
		if s.big == 0 {
			s.sum = float64(s.fixed) / grid
		} else {
			s.sum = sum4(s.window())
		}
	}
	return left
}

// window is the last n values, oldest first (meaningful once n were seen).
func (s *SMA) window() []float64 { return s.buf[s.i : s.i+s.n] }

// sum4 adds xs in four partial sums by place modulo 4 (the adds do not wait
// on one another, so the CPU overlaps them): the order depends only on each
// value's place in the window, so the same window always gives the same
// bits.
func sum4(xs []float64) float64 {
	var a, b, c, d float64
	for len(xs) >= 4 {
		a, b, c, d = a+xs[0], b+xs[1], c+xs[2], d+xs[3]
		xs = xs[4:]
	}
	for j, v := range xs {
		switch j {
		case 0:
			a += v
		case 1:
			b += v
		default:
			c += v
		}
	}
	return (a + b) + (c + d)
}

// dev4 is the sum of squared deviations of xs from mean, in sum4's order.
func dev4(xs []float64, mean float64) float64 {
	var a, b, c, d float64
	for len(xs) >= 4 {
		d0, d1, d2, d3 := xs[0]-mean, xs[1]-mean, xs[2]-mean, xs[3]-mean
		a, b, c, d = a+d0*d0, b+d1*d1, c+d2*d2, d+d3*d3
		xs = xs[4:]
	}
	for j, v := range xs {
		dv := (v - mean) * (v - mean)
		switch j {
		case 0:
			a += dv
		case 1:
			b += dv
		default:
			c += dv
		}
	}
	return (a + b) + (c + d)
}

// Value is the current average, NaN before n values.
func (s *SMA) Value() float64 {
	if s.count < s.n {
		return math.NaN()
	}
	return s.sum / float64(s.n)
}

// EMA is an exponential moving average seeded with the SMA of the first n values.
type EMA struct {
	n     int
	k     float64
	seed  *SMA
	value float64
	ready bool
}

// NewEMA returns an n-period exponential moving average (k = 2/(n+1)).
func NewEMA(n int) *EMA { return &EMA{n: n, k: 2 / float64(n+1), seed: NewSMA(n)} }

// Update adds x and returns the EMA (NaN until n values were seen).
func (e *EMA) Update(x float64) float64 {
	if !e.ready {
		if v := e.seed.Update(x); !math.IsNaN(v) {
			e.value, e.ready = v, true
		}
		return e.Value()
	}
	e.value += e.k * (x - e.value)
	return e.value
}

// Value is the current EMA, NaN before n values.
func (e *EMA) Value() float64 {
	if !e.ready {
		return math.NaN()
	}
	return e.value
}

// RSI is Wilder's relative strength index.
type RSI struct {
	n                int
	prev             float64
	seen             int
	avgGain, avgLoss float64
}

// NewRSI returns an n-period RSI.
func NewRSI(n int) *RSI { return &RSI{n: n} }

// Update adds a close and returns the RSI (NaN until n changes were seen).
func (r *RSI) Update(x float64) float64 {
	r.seen++
	if r.seen == 1 {
		r.prev = x
		return math.NaN()
	}
	ch := x - r.prev
	r.prev = x
	gain, loss := max(ch, 0), max(-ch, 0) // the builtin is math.Max without a call
	k := r.seen - 1                       // changes seen
	if k <= r.n {
		r.avgGain += gain / float64(r.n)
		r.avgLoss += loss / float64(r.n)
	} else {
		r.avgGain = (r.avgGain*float64(r.n-1) + gain) / float64(r.n)
		r.avgLoss = (r.avgLoss*float64(r.n-1) + loss) / float64(r.n)
	}
	return r.Value()
}

// Value is the current RSI in [0, 100], NaN before n changes.
func (r *RSI) Value() float64 {
	if r.seen-1 < r.n {
		return math.NaN()
	}
	if r.avgLoss == 0 {
		if r.avgGain == 0 {
			return 50
		}
		return 100
	}
	return 100 - 100/(1+r.avgGain/r.avgLoss)
}

// MACD is the moving average convergence/divergence with its signal line.
type MACD struct {
	fast, slow, signal *EMA
	macd, sig          float64
}

// NewMACD returns MACD(fast, slow, signal), e.g. 12, 26, 9.
func NewMACD(fast, slow, signal int) *MACD {
	return &MACD{fast: NewEMA(fast), slow: NewEMA(slow), signal: NewEMA(signal), macd: math.NaN(), sig: math.NaN()}
}

// Update adds a close and returns macd, signal and histogram (NaN until ready).
func (m *MACD) Update(x float64) (macd, signal, hist float64) {
	f, s := m.fast.Update(x), m.slow.Update(x)
	if math.IsNaN(f) || math.IsNaN(s) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	m.macd = f - s
	m.sig = m.signal.Update(m.macd)
	return m.macd, m.sig, m.macd - m.sig
}

// Bollinger bands: an n-period SMA and k population standard deviations
// around it. Like the SMA's sum, the sum of squares is kept exactly, in
// 128-bit integers of the same fixed-point values, and the variance is
// n x sum of squares - sum^2 (exact, never negative) over n^2: the bands are
// a function of the last n closes alone, with no cancellation at prices in
// the tens of thousands. A window with a value too large for the fixed
// point takes the deviations from the mean afresh instead.
type Bollinger struct {
	k   float64
	sma *SMA
	sq  u128 // the window's sum of squares in units of 2^-60, of the values that fit
}

// NewBollinger returns Bollinger(n, k), e.g. 20, 2.
func NewBollinger(n int, k float64) *Bollinger {
	return &Bollinger{k: k, sma: NewSMA(n)}
}

// Update adds a close and returns middle, upper and lower bands (NaN until ready).
func (b *Bollinger) Update(x float64) (middle, upper, lower float64) {
	s := b.sma
	f := s.fixedOf(x)
	if left := s.push(x, f); left != noFit {
		b.sq = b.sq.sub(square(left))
	}
	if f != noFit {
		b.sq = b.sq.add(square(f))
	}
	mid := s.Value()
	if math.IsNaN(mid) {
		return mid, mid, mid
	}
	n := float64(s.n)
	var variance float64
	if s.big == 0 {
		num := b.sq.mul(uint64(s.n)).sub(square(s.fixed)) // n·Σv² - (Σv)² >= 0
		variance = num.float() / (n * n) / (grid * grid)
	} else {
		variance = dev4(s.window(), mid) / n
	}
	sd := math.Sqrt(variance)
	return mid, mid + b.k*sd, mid - b.k*sd
}

// u128 is an unsigned 128-bit integer (wrapping, as uint64 does).
type u128 struct{ hi, lo uint64 }

// square is v^2.
func square(v int64) u128 {
	u := uint64(v)
	if v < 0 {
		u = uint64(-v)
	}
	hi, lo := bits.Mul64(u, u)
	return u128{hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

func (a u128) sub(b u128) u128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// mul is a x m (the caller keeps it below 2^128).
func (a u128) mul(m uint64) u128 {
	hi, lo := bits.Mul64(a.lo, m)
	return u128{a.hi*m + hi, lo}
}

func (a u128) float() float64 { return float64(a.hi)*0x1p64 + float64(a.lo) }
