package backtest

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

// MinAnnualised is the shortest run whose CAGR and Calmar ratio are
// reported: below it they are null with the reason (a 7-day return
// compounded over a year says nothing about the strategy).
const MinAnnualised = 30 * 24 * time.Hour

// spacing is the candles' width: the median gap between consecutive
// candles, so a gap in the data (a missing candle, an outage) does not
// change the annualisation as the first two candles' gap would.
func spacing(cs []domain.Candle) time.Duration {
	if len(cs) < 2 {
		return time.Hour
	}
	// Candles are nearly always evenly spaced: then every gap is the
	// median, found without collecting and sorting them.
	var first time.Duration
	even := true
	for i := 1; i < len(cs) && even; i++ {
		switch g := cs[i].Time.Sub(cs[i-1].Time); {
		case g <= 0:
		case first == 0:
			first = g
		default:
			even = g == first
		}
	}
	if even {
		if first == 0 {
			return time.Hour
		}
		return first
	}
	if m, ok := medianGap(len(cs), func(i int) time.Duration { return cs[i].Time.Sub(cs[i-1].Time) }); ok {
		return m
	}
	gaps := make([]time.Duration, 0, len(cs)-1)
	for i := 1; i < len(cs); i++ {
		if g := cs[i].Time.Sub(cs[i-1].Time); g > 0 {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		return time.Hour
	}
	slices.Sort(gaps)
	return gaps[len(gaps)/2]
}

// medianGap is the median positive gap(i) for i in 1..n-1 (the element at
// half the count once sorted) when the gaps take few distinct values (a
// history with holes: 15 minutes, and now and then more): counted, not
// sorted. ok is false with no positive gap or too many distinct ones.
func medianGap(n int, gap func(i int) time.Duration) (time.Duration, bool) {
	type count struct {
		g time.Duration
		n int
	}
	var seen [32]count
	distinct, total := 0, 0
	for i := 1; i < n; i++ {
		g := gap(i)
		if g <= 0 {
			continue
		}
		total++
		j := 0
		for j < distinct && seen[j].g != g {
			j++
		}
		if j == distinct {
			if distinct == len(seen) {
				return 0, false
			}
			seen[j], distinct = count{g: g}, distinct+1
		}
		seen[j].n++
	}
	if total == 0 {
		return 0, false
	}
	counts := seen[:distinct]
	slices.SortFunc(counts, func(a, b count) int { return cmp.Compare(a.g, b.g) })
	at := total / 2 // the index the sorted gaps would be read at
	for _, c := range counts {
		if at < c.n {
			return c.g, true
		}
		at -= c.n
	}
	return 0, false // not reached
}

// annualised is CAGR and Calmar over a run of length span, or nils and the
// reason when the run is shorter than MinAnnualised (Calmar alone is nil
// without a drawdown).
func annualised(initial, final decimal.Decimal, span time.Duration, maxDD float64) (*float64, *float64, string) {
	if span < MinAnnualised {
		return nil, nil, fmt.Sprintf("CAGR and Calmar are not annualised for runs shorter than %d days (this one: %.1f days)",
			int(MinAnnualised/(24*time.Hour)), span.Hours()/24)
	}
	cagr := analytics.CAGR(initial, final, float64(span)/float64(365*24*time.Hour))
	if maxDD <= 0 {
		return &cagr, nil, "" // no drawdown: the Calmar ratio has no denominator
	}
	calmar := analytics.Calmar(cagr, maxDD)
	return &cagr, &calmar, ""
}

// buyAndHold is the return of buying at first's open and selling at last's
// close with the run's half-spread, slippage and taker fee on both fills,
// as a trade pays them: the entry costs open x (1 + half) x (1 + slippage)
// per unit, at most first's high, plus the fee; the exit brings close x
// (1 - half) x (1 - slippage), at least last's low, less the fee (a fill
// stays within its candle, as every fill of the run; off the price grid:
// a statistic, not a fill).
func buyAndHold(first, last domain.Candle, half, fee, slippageBps decimal.Decimal) float64 {
	open, close := first.Open, last.Close
	if !open.IsPositive() {
		return 0
	}
	one, slip := decimal.NewFromInt(1), slippageBps.Div(decimal.NewFromInt(10000))
	in := open.Mul(one.Add(half)).Mul(one.Add(slip))
	if first.High.IsPositive() && in.GreaterThan(first.High) {
		in = first.High
	}
	out := close.Mul(one.Sub(half)).Mul(one.Sub(slip))
	if last.Low.IsPositive() && out.LessThan(last.Low) {
		out = last.Low
	}
	in, out = in.Mul(one.Add(fee)), out.Mul(one.Sub(fee))
	return out.Div(in).Sub(one).InexactFloat64()
}
