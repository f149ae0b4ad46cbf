package analytics

import "math"

// EulerGamma is the Euler-Mascheroni constant, used by the expected maximum
// of many Sharpe ratios.
const EulerGamma = 0.5772156649015329

// Moments are the sample statistics of a return series the deflated Sharpe
// ratio needs: how many returns, their per-period Sharpe ratio (mean over
// the sample standard deviation, not annualised), skewness and kurtosis
// (not excess: 3 for a normal distribution; both from the population
// moments, m3 / m2^1.5 and m4 / m2^2). Defined is false when the returns
// do not vary (fewer than two, or all equal): no ratio exists then.
type Moments struct {
	N        int     `json:"observations"`
	Sharpe   float64 `json:"sharpe"`
	Skewness float64 `json:"skewness"`
	Kurtosis float64 `json:"kurtosis"`
	Defined  bool    `json:"defined"`
}

// ReturnMoments computes Moments of period returns.
func ReturnMoments(rs []float64) Moments {
	m := Moments{N: len(rs)}
	if len(rs) < 2 || constant(rs) {
		return m
	}
	n := float64(len(rs))
	mean := 0.0
	for _, r := range rs {
		mean += r
	}
	mean /= n
	var m2, m3, m4 float64
	for _, r := range rs {
		d := r - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	if m2 <= 0 {
		return m
	}
	m.Sharpe = mean / math.Sqrt(m2*n/(n-1)) // the sample deviation, as Sharpe uses
	m.Skewness = m3 / math.Pow(m2, 1.5)
	m.Kurtosis = m4 / (m2 * m2)
	m.Defined = true
	return m
}

// ExpectedMaxSharpe is the Sharpe ratio the best of n independent trials
// would reach by luck alone when every true Sharpe ratio is zero, given the
// variance of the trials' Sharpe ratios (Bailey and López de Prado 2014,
// from the false strategy theorem):
//
//	SR0 = sqrt(V) x ((1 - γ) Φ⁻¹(1 - 1/n) + γ Φ⁻¹(1 - 1/(n e)))
//
// with γ the Euler-Mascheroni constant. Zero for a single trial (nothing
// was selected) or no variance.
func ExpectedMaxSharpe(n int, variance float64) float64 {
	if n < 2 || variance <= 0 {
		return 0
	}
	fn := float64(n)
	return math.Sqrt(variance) * ((1-EulerGamma)*NormInv(1-1/fn) + EulerGamma*NormInv(1-1/(fn*math.E)))
}

// ProbabilisticSharpe is the probability that the true Sharpe ratio
// exceeds benchmark, given an observed per-period Sharpe ratio sr over t
// returns with skewness and kurtosis (Bailey and López de Prado 2012):
//
//	PSR = Φ( (sr - benchmark) sqrt(t - 1) / sqrt(1 - skew sr + (kurt - 1)/4 sr²) )
//
// NaN when t < 2 or the denominator is not positive (possible only with
// extreme skewness).
func ProbabilisticSharpe(sr, benchmark float64, t int, skew, kurt float64) float64 {
	d := 1 - skew*sr + (kurt-1)/4*sr*sr
	if t < 2 || d <= 0 {
		return math.NaN()
	}
	return NormCDF((sr - benchmark) * math.Sqrt(float64(t-1)) / math.Sqrt(d))
}

// DeflatedSharpe is the deflated Sharpe ratio (Bailey and López de Prado
// 2014): the probabilistic Sharpe ratio of the selected trial's returns
// against the Sharpe ratio the best of n trials would reach by luck
// (ExpectedMaxSharpe), so it is the probability that the selected
// strategy's true Sharpe ratio is above zero once the search that found
// it is accounted for. All Sharpe ratios are per period (not annualised),
// variance is the variance of the n trials' per-period Sharpe ratios.
func DeflatedSharpe(m Moments, n int, variance float64) float64 {
	return ProbabilisticSharpe(m.Sharpe, ExpectedMaxSharpe(n, variance), m.N, m.Skewness, m.Kurtosis)
}

// NormCDF is the standard normal distribution function Φ.
func NormCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// NormInv is the standard normal quantile function Φ⁻¹ (p in (0, 1)).
func NormInv(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
