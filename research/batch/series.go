package batch

import (
	"math"

	"kestrel/indicators"
	"kestrel/strategy"
)

// The shared series. A trial's technical signal at candle t is the vote of
// four rules on its indicators (strategy/technical.go): RSI against its
// two levels, the SMA cross, the MACD cross and the Bollinger bands. Each
// indicator is computed here once per distinct parameter value, by the same
// streaming code the strategy runs, fed the same closes from the first
// candle on (as a backtest's private replay is), so every value is the
// strategy's own, bit for bit. The three rules without a per-trial
// threshold are folded into one vote series per distinct combination; only
// RSI's levels are compared per trial.

// vote packs the three shared rules' votes at a candle: the BUY votes in
// the low nibble, the SELL votes in the high one.
type vote = uint8

type bbKey struct {
	n int
	k float64
}

type smaKey struct {
	n  int
	bb bbKey // the Bollinger middle is the SMA of its period (newStream)
}

type crossKey struct{ short, long smaKey }

type macdKey struct{ fast, slow, signal int }

type votesKey struct {
	sma  crossKey
	macd macdKey
	bb   bbKey
}

// series holds the shared closes and every indicator series computed so far.
type series struct {
	closes []float64
	rsi    map[int][]float64
	bb     map[bbKey]*bands
	sma    map[smaKey][]float64
	cross  map[crossKey][]int8
	macd   map[macdKey][]int8
	votes  map[votesKey][]vote
}

type bands struct{ mid, upper, lower []float64 }

func newSeries(closes []float64) *series {
	return &series{closes: closes, rsi: map[int][]float64{}, bb: map[bbKey]*bands{}, sma: map[smaKey][]float64{},
		cross: map[crossKey][]int8{}, macd: map[macdKey][]int8{}, votes: map[votesKey][]vote{}}
}

func (s *series) rsiOf(n int) []float64 {
	if v, ok := s.rsi[n]; ok {
		return v
	}
	r := indicators.NewRSI(n)
	v := make([]float64, len(s.closes))
	for i, x := range s.closes {
		v[i] = r.Update(x)
	}
	s.rsi[n] = v
	return v
}

func (s *series) bandsOf(k bbKey) *bands {
	if b, ok := s.bb[k]; ok {
		return b
	}
	n := len(s.closes)
	b := &bands{mid: make([]float64, n), upper: make([]float64, n), lower: make([]float64, n)}
	bb := indicators.NewBollinger(k.n, k.k)
	for i, x := range s.closes {
		b.mid[i], b.upper[i], b.lower[i] = bb.Update(x)
	}
	s.bb[k] = b
	return b
}

func (s *series) smaOf(k smaKey) []float64 {
	if k.n == k.bb.n {
		return s.bandsOf(k.bb).mid
	}
	k.bb = bbKey{} // the SMA of its own: the same for every Bollinger setting
	if v, ok := s.sma[k]; ok {
		return v
	}
	m := indicators.NewSMA(k.n)
	v := make([]float64, len(s.closes))
	for i, x := range s.closes {
		v[i] = m.Update(x)
	}
	s.sma[k] = v
	return v
}

func (s *series) crossOf(k crossKey) []int8 {
	if v, ok := s.cross[k]; ok {
		return v
	}
	a, b := s.smaOf(k.short), s.smaOf(k.long)
	v := make([]int8, len(s.closes))
	for i := 1; i < len(v); i++ {
		v[i] = int8(strategy.Crossed(a[i-1], b[i-1], a[i], b[i]))
	}
	s.cross[k] = v
	return v
}

func (s *series) macdOf(k macdKey) []int8 {
	if v, ok := s.macd[k]; ok {
		return v
	}
	m := indicators.NewMACD(k.fast, k.slow, k.signal)
	v := make([]int8, len(s.closes))
	pm, ps := math.NaN(), math.NaN()
	for i, x := range s.closes {
		line, sig, _ := m.Update(x)
		v[i] = int8(strategy.Crossed(pm, ps, line, sig))
		pm, ps = line, sig
	}
	s.macd[k] = v
	return v
}

// votesOf is the shared rules' votes of one indicator setting.
func (s *series) votesOf(in strategy.Indicators) []vote {
	bb := bbKey{in.BollingerPeriod, in.BollingerStd}
	k := votesKey{sma: crossKey{smaKey{in.SMAShort, bb}, smaKey{in.SMALong, bb}}, macd: macdKey{in.MACDFast, in.MACDSlow, in.MACDSignal}, bb: bb}
	if k.sma.short.n != bb.n {
		k.sma.short.bb = bbKey{}
	}
	if k.sma.long.n != bb.n {
		k.sma.long.bb = bbKey{}
	}
	if v, ok := s.votes[k]; ok {
		return v
	}
	cr, mc, b := s.crossOf(k.sma), s.macdOf(k.macd), s.bandsOf(bb)
	v := make([]vote, len(s.closes))
	for i, x := range s.closes {
		var buy, sell uint8
		count := func(x int8) {
			if x > 0 {
				buy++
			} else if x < 0 {
				sell++
			}
		}
		count(cr[i])
		count(mc[i])
		if lo := b.lower[i]; lo-lo == 0 {
			if x <= lo {
				buy++
			} else if x >= b.upper[i] {
				sell++
			}
		}
		v[i] = buy | sell<<4
	}
	s.votes[k] = v
	return v
}
