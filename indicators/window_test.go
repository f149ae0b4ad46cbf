package indicators_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"kestrel/indicators"
)

// The SMA and the Bollinger bands are functions of their window alone: a
// stream that has run for 100,000 values and one fed only the last n agree
// bit for bit on every value, also while a value too large for the fixed
// point (summed afresh instead) is in the window.
func TestWindowedReadingsDoNotDependOnStreamAge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 20
	xs := make([]float64, 100_000)
	x := 60_000.0
	for i := range xs {
		x *= 1 + (rng.Float64()-0.5)*0.01
		xs[i] = math.Round(x*100) / 100 // cents, as prices are
	}
	xs[50_000] = 1e12 // beyond the fixed point of a 20-value sum
	sma, bb := indicators.NewSMA(n), indicators.NewBollinger(n, 2)
	for i, v := range xs {
		got := sma.Update(v)
		mid, up, lo := bb.Update(v)
		if i < n-1 || i%97 != 0 && (i < 50_000 || i > 50_000+n) {
			continue // every 97th value, and every one around the large value
		}
		fs, fb := indicators.NewSMA(n), indicators.NewBollinger(n, 2)
		var want, wmid, wup, wlo float64
		for _, w := range xs[i-n+1 : i+1] {
			want = fs.Update(w)
			wmid, wup, wlo = fb.Update(w)
		}
		if got != want || mid != wmid || up != wup || lo != wlo {
			t.Fatalf("value %d: long-running %v %v %v %v, fresh %v %v %v %v", i, got, mid, up, lo, want, wmid, wup, wlo)
		}
	}
}
