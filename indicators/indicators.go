// Package indicators computes technical indicators over closing prices. They
// are statistics, so float64 is fine here (money stays decimal elsewhere).
// Each streaming type updates in O(1); the *Series helpers return one value
// per input, NaN until the indicator has enough data.
package indicators

import "math"

// SMA is a simple moving average over n values.
type SMA struct {
	n      int
	window []float64
	i      int
	count  int
	sum    float64
}

// NewSMA returns an n-period simple moving average.
func NewSMA(n int) *SMA { return &SMA{n: n, window: make([]float64, n)} }

// Update adds x and returns the average (NaN until n values were seen).
func (s *SMA) Update(x float64) float64 {
	if s.count == s.n {
		s.sum -= s.window[s.i]
	} else {
		s.count++
	}
	s.window[s.i] = x
	s.sum += x
	if s.i++; s.i == s.n { // not %: a division on every value
		s.i = 0
	}
	return s.Value()
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

// Bollinger bands: an n-period SMA and k population standard deviations around it.
type Bollinger struct {
	k       float64
	sma     *SMA
	sumSq   float64
	window  []float64
	i, seen int
}

// NewBollinger returns Bollinger(n, k), e.g. 20, 2.
func NewBollinger(n int, k float64) *Bollinger {
	return &Bollinger{k: k, sma: NewSMA(n), window: make([]float64, n)}
}

// Update adds a close and returns middle, upper and lower bands (NaN until ready).
func (b *Bollinger) Update(x float64) (middle, upper, lower float64) {
	n := len(b.window)
	if b.seen == n {
		b.sumSq -= b.window[b.i] * b.window[b.i]
	} else {
		b.seen++
	}
	b.window[b.i] = x
	b.sumSq += x * x
	if b.i++; b.i == n {
		b.i = 0
	}
	mid := b.sma.Update(x)
	if math.IsNaN(mid) {
		return mid, mid, mid
	}
	sd := math.Sqrt(max(b.sumSq/float64(n)-mid*mid, 0))
	return mid, mid + b.k*sd, mid - b.k*sd
}
