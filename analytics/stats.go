package analytics

import (
	"math"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// DaysPerYear annualises daily figures of a market that trades 24/7.
const DaysPerYear = 365

// DayValue is a value at the end of one UTC day (Date is that day's midnight).
type DayValue struct {
	Date  time.Time
	Value decimal.Decimal
}

// DayReturn is the simple return from the previous day end to Date's end.
type DayReturn struct {
	Date   time.Time
	Return float64
}

// UTCDay is the midnight (UTC) that starts t's day.
func UTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DayEnds keeps the last recorded value of every UTC day, ascending.
// points must be ascending in time (as the portfolio store returns them).
func DayEnds(points []domain.PortfolioPoint) []DayValue {
	out := []DayValue{}
	for _, p := range points {
		d := UTCDay(p.Time)
		if n := len(out); n > 0 && out[n-1].Date.Equal(d) {
			out[n-1].Value = p.Value
			continue
		}
		out = append(out, DayValue{Date: d, Value: p.Value})
	}
	return out
}

// DailyCloses are the closes of daily candles as day values, ascending.
func DailyCloses(candles []domain.Candle) []DayValue {
	out := make([]DayValue, 0, len(candles))
	for _, c := range candles {
		out = append(out, DayValue{Date: UTCDay(c.Time), Value: c.Close})
	}
	return out
}

// DailyReturns are the simple returns between consecutive day values,
// dated by the later day: R = (V_d - V_prev) / V_prev. A return whose
// starting value is not positive is skipped, as in Returns.
func DailyReturns(days []DayValue) []DayReturn {
	out := []DayReturn{}
	for i := 1; i < len(days); i++ {
		if prev := days[i-1].Value; prev.IsPositive() {
			out = append(out, DayReturn{Date: days[i].Date, Return: days[i].Value.Sub(prev).Div(prev).InexactFloat64()})
		}
	}
	return out
}

// Values strips the dates off daily returns.
func Values(rs []DayReturn) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.Return
	}
	return out
}

// Align pairs two daily return series on the dates both have, in a's order.
func Align(a, b []DayReturn) (x, y []float64) {
	byDate := map[time.Time]float64{}
	for _, r := range b {
		byDate[r.Date] = r.Return
	}
	for _, r := range a {
		if v, ok := byDate[r.Date]; ok {
			x, y = append(x, r.Return), append(y, v)
		}
	}
	return x, y
}

// F is a float figure that may be undefined (JSON null).
func F(v float64) *float64 { return &v }

// Mean is the arithmetic mean; nil for no values.
func Mean(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return F(s / float64(len(xs)))
}

// StdDev is the sample standard deviation (n - 1); nil with fewer than two values.
func StdDev(xs []float64) *float64 {
	if len(xs) < 2 {
		return nil
	}
	m := *Mean(xs)
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return F(math.Sqrt(ss / float64(len(xs)-1)))
}

// Volatility is the annualised volatility of daily returns,
// s(R) x sqrt(365); nil with fewer than two returns.
func Volatility(daily []float64) *float64 {
	s := StdDev(daily)
	if s == nil {
		return nil
	}
	return F(*s * math.Sqrt(DaysPerYear))
}

// Quantile is the q quantile (0..1) with linear interpolation between
// closest ranks (numpy's default): h = (n - 1) q, x_floor(h) + (h -
// floor(h)) (x_floor(h)+1 - x_floor(h)) over the sorted values; nil for none.
func Quantile(xs []float64, q float64) *float64 {
	if len(xs) == 0 || q < 0 || q > 1 {
		return nil
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return F(s[len(s)-1])
	}
	return F(s[lo] + (h-float64(lo))*(s[lo+1]-s[lo]))
}

// Covariance is the sample covariance (n - 1) of paired values; nil with
// fewer than two pairs or unequal lengths.
func Covariance(x, y []float64) *float64 {
	n := len(x)
	if n < 2 || n != len(y) {
		return nil
	}
	mx, my := *Mean(x), *Mean(y)
	s := 0.0
	for i := range x {
		s += (x[i] - mx) * (y[i] - my)
	}
	return F(s / float64(n-1))
}

// Correlation is Pearson's correlation of paired values, cov(x, y) /
// (s(x) s(y)); nil with fewer than two pairs or when either does not vary.
func Correlation(x, y []float64) *float64 {
	c := Covariance(x, y)
	if c == nil || constant(x) || constant(y) {
		return nil
	}
	r := *c / (*StdDev(x) * *StdDev(y))
	return F(math.Max(-1, math.Min(1, r)))
}

// Beta is the portfolio's sensitivity to a benchmark: cov(R_p, R_b) /
// var(R_b) over paired daily returns; nil with fewer than two pairs or a
// benchmark that does not vary.
func Beta(portfolio, benchmark []float64) *float64 {
	c := Covariance(portfolio, benchmark)
	if c == nil || constant(benchmark) {
		return nil
	}
	return F(*c / *Covariance(benchmark, benchmark))
}
