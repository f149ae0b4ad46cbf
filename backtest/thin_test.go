package backtest

import (
	"math"
	"slices"
	"testing"
	"time"
)

// A year of one-minute points thins to at most MaxCurvePoints, in time
// order, keeping the first and last points, the lowest and highest
// equity, the deepest drawdown and the halt's point.
func TestThinCurveKeepsTheExtremes(t *testing.T) {
	t0 := time.Date(2025, 5, 8, 0, 0, 0, 0, time.UTC)
	n := 365 * 24 * 60
	curve := make([]Point, n)
	peak := Cents(0)
	for i := range curve {
		eq := Cents(1_000_000 + int64(50_000*math.Sin(float64(i)/9000)) + int64(i%7))
		peak = max(peak, eq)
		curve[i] = Point{Time: t0.Add(time.Duration(i) * time.Minute), Equity: eq, Drawdown: float64(peak-eq) / float64(peak)}
	}
	curve[123_457].Equity, curve[400_001].Equity = 2_000_000, 1 // a spike and a crash, one point each
	curve[400_001].Drawdown = 0.99
	halt := curve[300_000].Time
	got := thinCurve(curve, halt)
	if len(got) > MaxCurvePoints || len(got) < MaxCurvePoints/2 {
		t.Fatalf("%d points, want at most %d (and not far fewer)", len(got), MaxCurvePoints)
	}
	if !slices.IsSortedFunc(got, func(a, b Point) int { return a.Time.Compare(b.Time) }) {
		t.Fatal("the thinned curve is out of time order")
	}
	for _, want := range []Point{curve[0], curve[n-1], curve[123_457], curve[400_001], curve[300_000]} {
		if !slices.Contains(got, want) {
			t.Errorf("the point at %s (equity %s) was dropped", want.Time, want.Equity)
		}
	}
	short := curve[:MaxCurvePoints]
	if got := thinCurve(short, time.Time{}); len(got) != len(short) {
		t.Errorf("a curve within the cap: %d points, want all %d", len(got), len(short))
	}
}
