package indicators_test

import (
	"math"
	"testing"

	"kestrel/candles"
	"kestrel/indicators"
)

// The streaming indicators agree with a plain batch recomputation (each
// value computed from scratch over its window, textbook formulas) on the
// shipped BTC-USD candles.
func TestStreamingMatchesBatchOnShippedCandles(t *testing.T) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		t.Fatal(err)
	}
	n := min(s.Len(), 3000)
	x := make([]float64, n)
	for i := range x {
		x[i] = s.Candle(i).Close.InexactFloat64()
	}
	near := func(what string, i int, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Fatalf("%s at %d: streaming %v, batch %v", what, i, got, want)
		}
	}
	sma, bb, rsi := indicators.NewSMA(20), indicators.NewBollinger(20, 2), indicators.NewRSI(14)
	ema := indicators.NewEMA(12)
	for i := range x {
		gotSMA := sma.Update(x[i])
		mid, up, lo := bb.Update(x[i])
		gotRSI := rsi.Update(x[i])
		gotEMA := ema.Update(x[i])
		if i >= 19 {
			m, sd := meanSD(x[i-19 : i+1])
			near("SMA20", i, gotSMA, m)
			near("Bollinger middle", i, mid, m)
			near("Bollinger upper", i, up, m+2*sd)
			near("Bollinger lower", i, lo, m-2*sd)
		}
		if i >= 14 {
			near("RSI14", i, gotRSI, wilderRSI(x[:i+1], 14))
		}
		if i >= 11 {
			near("EMA12", i, gotEMA, batchEMA(x[:i+1], 12))
		}
	}
}

func meanSD(w []float64) (float64, float64) {
	m := 0.0
	for _, v := range w {
		m += v
	}
	m /= float64(len(w))
	v := 0.0
	for _, x := range w {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(w))) // population deviation, as Bollinger defined it
}

// wilderRSI: the first average is the mean of the first n changes, then
// avg = (avg x (n-1) + change) / n.
func wilderRSI(x []float64, n int) float64 {
	var gain, loss float64
	for i := 1; i <= n; i++ {
		d := x[i] - x[i-1]
		gain += math.Max(d, 0)
		loss += math.Max(-d, 0)
	}
	gain, loss = gain/float64(n), loss/float64(n)
	for i := n + 1; i < len(x); i++ {
		d := x[i] - x[i-1]
		gain = (gain*float64(n-1) + math.Max(d, 0)) / float64(n)
		loss = (loss*float64(n-1) + math.Max(-d, 0)) / float64(n)
	}
	if loss == 0 {
		if gain == 0 {
			return 50
		}
		return 100
	}
	return 100 - 100/(1+gain/loss)
}

// batchEMA seeds with the SMA of the first n values, then k = 2/(n+1).
func batchEMA(x []float64, n int) float64 {
	e := 0.0
	for _, v := range x[:n] {
		e += v
	}
	e /= float64(n)
	k := 2 / float64(n+1)
	for _, v := range x[n:] {
		e = v*k + e*(1-k)
	}
	return e
}
