package backtest

import (
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

// buyAndHold is the return of buying at open and selling at close with the
// run's half-spread, slippage and taker fee on both fills, as a trade pays
// them: the entry costs open x (1 + half) x (1 + slippage) x (1 + fee) per
// unit, the exit brings close x (1 - half) x (1 - slippage) x (1 - fee)
// (off the price grid: a statistic, not a fill).
func buyAndHold(open, close, half, fee, slippageBps decimal.Decimal) float64 {
	if !open.IsPositive() {
		return 0
	}
	one, slip := decimal.NewFromInt(1), slippageBps.Div(decimal.NewFromInt(10000))
	in := open.Mul(one.Add(half)).Mul(one.Add(slip)).Mul(one.Add(fee))
	out := close.Mul(one.Sub(half)).Mul(one.Sub(slip)).Mul(one.Sub(fee))
	return out.Div(in).Sub(one).InexactFloat64()
}
