package backtest

import (
	"slices"
	"time"
)

// MaxCurvePoints caps the equity curve a stored (or answered) report
// carries. A year of one-minute candles makes 525,600 points, 40 MB of
// JSON that no screen can draw point by point (a chart has about a
// thousand pixels across); the metrics are computed from the whole curve
// before it is thinned.
const MaxCurvePoints = 4000

// thinCurve keeps at most MaxCurvePoints points of curve: it cuts the
// curve into buckets of equal numbers of points and keeps, in time order,
// each bucket's first point and those with its lowest and highest equity
// and its deepest drawdown (min/max per bucket, so every peak, trough and
// the maximum drawdown stay exactly where they were), the last point of
// the curve, and the point at keep (a halt's start) when it is on the
// curve. A curve within the cap is returned as it is.
func thinCurve(curve []Point, keep time.Time) []Point {
	n := len(curve)
	if n <= MaxCurvePoints {
		return curve
	}
	const perBucket = 4
	buckets := (MaxCurvePoints - 2) / perBucket
	idx := make([]int, 0, MaxCurvePoints)
	for b := range buckets {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		if lo >= hi {
			continue
		}
		minI, maxI, ddI := lo, lo, lo
		for i := lo + 1; i < hi; i++ {
			p := curve[i]
			if p.Equity < curve[minI].Equity {
				minI = i
			}
			if p.Equity > curve[maxI].Equity {
				maxI = i
			}
			if p.Drawdown > curve[ddI].Drawdown {
				ddI = i
			}
		}
		idx = append(idx, lo, minI, maxI, ddI)
	}
	idx = append(idx, n-1)
	if !keep.IsZero() {
		if i, ok := slices.BinarySearchFunc(curve, keep, func(p Point, t time.Time) int { return p.Time.Compare(t) }); ok {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]Point, len(idx))
	for k, i := range idx {
		out[k] = curve[i]
	}
	return out
}
