package analytics

import (
	"math"

	"github.com/shopspring/decimal"
)

// MaxDrawdown is the largest fall of a value series below its running peak,
// as a fraction of that peak (0.25 is 25%):
//
//	MaxDrawdown = max over t of (P_t - V_t) / P_t,  P_t = max(V_0 .. V_t)
//
// computed in decimal (quotients to decimal.DivisionPrecision places).
// It is zero for an empty, one-point, flat or rising series; points while
// the running peak is not positive are skipped (no fraction of nothing).
func MaxDrawdown(values []decimal.Decimal) decimal.Decimal {
	worst, peak := decimal.Zero, decimal.Zero
	for i, v := range values {
		if i == 0 || v.GreaterThan(peak) {
			peak = v
		}
		if peak.IsPositive() {
			worst = decimal.Max(worst, peak.Sub(v).Div(peak))
		}
	}
	return worst
}

// Returns are the simple period returns of a value series,
//
//	R_i = (V_i - V_{i-1}) / V_{i-1},  i = 1 .. n-1
//
// computed in decimal and converted to float64 for statistics. A series of
// fewer than two points has none; a period that starts at a value that is
// not positive has no return and is skipped.
func Returns(values []decimal.Decimal) []float64 {
	out := make([]float64, 0, max(len(values)-1, 0))
	for i := 1; i < len(values); i++ {
		if prev := values[i-1]; prev.IsPositive() {
			out = append(out, values[i].Sub(prev).Div(prev).InexactFloat64())
		}
	}
	return out
}

// Sharpe is the annualised Sharpe ratio of period returns with a zero
// risk-free rate (pass excess returns to use one):
//
//	Sharpe = mean(R) / s(R) * sqrt(periodsPerYear)
//	s(R)   = sqrt( sum (R_i - mean(R))^2 / (n - 1) )   (sample standard deviation)
//
// periodsPerYear is how many return periods make a year (252 trading days,
// 365 calendar days, 8760 hours). It is zero when undefined: fewer than two
// returns, returns that do not vary (a flat series), or periodsPerYear not
// positive.
func Sharpe(returns []float64, periodsPerYear float64) float64 {
	n := len(returns)
	if n < 2 || periodsPerYear <= 0 || constant(returns) {
		return 0
	}
	mean := 0.0
	for _, r := range returns {
		mean += r
	}
	mean /= float64(n)
	ss := 0.0
	for _, r := range returns {
		ss += (r - mean) * (r - mean)
	}
	return mean / math.Sqrt(ss/float64(n-1)) * math.Sqrt(periodsPerYear)
}

// constant reports whether every value is the same: its deviation is zero,
// though a float mean may miss the value by a rounding error.
func constant(xs []float64) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// Sortino is the annualised Sortino ratio with a zero target (risk-free 0):
//
//	Sortino = mean(R) / DD * sqrt(periodsPerYear)
//	DD      = sqrt( sum min(R_i, 0)^2 / n )   (downside deviation over all periods)
//
// It is zero with fewer than two returns, no losing period, or
// periodsPerYear not positive.
func Sortino(returns []float64, periodsPerYear float64) float64 {
	n := len(returns)
	if n < 2 || periodsPerYear <= 0 {
		return 0
	}
	mean, down := 0.0, 0.0
	for _, r := range returns {
		mean += r
		if r < 0 {
			down += r * r
		}
	}
	if down == 0 {
		return 0
	}
	mean /= float64(n)
	return mean / math.Sqrt(down/float64(n)) * math.Sqrt(periodsPerYear)
}

// CAGR is the compound annual growth rate from start to end over years:
//
//	CAGR = (end / start)^(1 / years) - 1
//
// zero when start is not positive or years is not positive; -1 when
// everything was lost.
func CAGR(start, end decimal.Decimal, years float64) float64 {
	if !start.IsPositive() || years <= 0 {
		return 0
	}
	ratio := end.Div(start).InexactFloat64()
	if ratio <= 0 {
		return -1
	}
	return math.Pow(ratio, 1/years) - 1
}

// Calmar is CAGR over the maximum drawdown (a fraction); zero without a drawdown.
func Calmar(cagr, maxDrawdown float64) float64 {
	if maxDrawdown <= 0 {
		return 0
	}
	return cagr / maxDrawdown
}
