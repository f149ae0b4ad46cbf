package analytics

import (
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// HistoricalVaR is the value at risk at confidence c (0.95) from daily
// returns: minus their (1 - c) quantile (linear interpolation), a loss
// fraction (0.05 is 5% of the value). Negative when even the (1 - c)
// quantile is a gain. nil with fewer than two returns.
func HistoricalVaR(daily []float64, c float64) *float64 {
	if len(daily) < 2 {
		return nil
	}
	return F(-*Quantile(daily, 1-c))
}

// ExpectedShortfall at confidence c is minus the mean of the daily returns
// at or below their (1 - c) quantile; nil with fewer than two returns.
func ExpectedShortfall(daily []float64, c float64) *float64 {
	if len(daily) < 2 {
		return nil
	}
	q := *Quantile(daily, 1-c)
	var tail []float64
	for _, r := range daily {
		if r <= q {
			tail = append(tail, r)
		}
	}
	return F(-*Mean(tail))
}

// ParametricVaR is the normal (variance-covariance) value at risk at
// confidence c: -(mean + z(1 - c) s), s the sample standard deviation and
// z the standard normal quantile (z(0.05) = -1.6449); nil with fewer than two returns.
func ParametricVaR(daily []float64, c float64) *float64 {
	s := StdDev(daily)
	if s == nil {
		return nil
	}
	return F(-(*Mean(daily) + NormalQuantile(1-c)**s))
}

// NormalQuantile is the standard normal distribution's p quantile.
func NormalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// Money is a loss fraction of a value in USD, to the cent; nil stays nil.
func Money(fraction *float64, value decimal.Decimal) *decimal.Decimal {
	if fraction == nil {
		return nil
	}
	m := value.Mul(decimal.NewFromFloat(*fraction)).Round(2)
	return &m
}

// DrawdownPoint is one day of the drawdown history.
type DrawdownPoint struct {
	Date time.Time `json:"date"`
	// Drawdown is (V - peak) / peak, zero or negative (-0.1 is 10% below the peak).
	Drawdown float64 `json:"drawdown"`
	// Underwater is whether the value is below its running peak.
	Underwater bool `json:"underwater"`
	// Recovery is the share of the current fall won back since its trough,
	// (V - trough) / (peak - trough); null when at a peak.
	Recovery *float64 `json:"recovery"`
}

// Drawdowns is the drawdown history of day values against the running
// peak (including the first value). Days while the peak is not positive are skipped.
func Drawdowns(days []DayValue) []DrawdownPoint {
	out := []DrawdownPoint{}
	var peak, trough decimal.Decimal
	for i, d := range days {
		if i == 0 || d.Value.GreaterThanOrEqual(peak) {
			peak, trough = d.Value, d.Value
		}
		trough = decimal.Min(trough, d.Value)
		if !peak.IsPositive() {
			continue
		}
		p := DrawdownPoint{Date: d.Date, Drawdown: d.Value.Sub(peak).Div(peak).InexactFloat64(), Underwater: d.Value.LessThan(peak)}
		if p.Underwater {
			p.Recovery = F(d.Value.Sub(trough).Div(peak.Sub(trough)).InexactFloat64())
		}
		out = append(out, p)
	}
	return out
}

// Holding is a currently held symbol at its market value (USD, to the cent).
type Holding struct {
	Symbol      string
	MarketValue decimal.Decimal
}

// Scenario is a stress test: a price shock per held symbol.
type Scenario struct {
	Name        string
	Description string
	// Shock is the price change of a symbol (-0.3 is a 30% fall); zero leaves it unchanged.
	Shock func(symbol string) decimal.Decimal
	// Horizon is the days over which a move as large is counted in the
	// daily history for the scenario's probability; 0 estimates none.
	Horizon int
}

func all(shock string) func(string) decimal.Decimal {
	d := decimal.RequireFromString(shock)
	return func(string) decimal.Decimal { return d }
}

// Scenarios are the stress tests: the spec's four shocks, -30%, -50%, -15%
// and -25%, applied to current holdings. Their horizons say over how many
// days a fall that large is counted for the probability: a flash crash is a
// day, a crash or an altcoin slide a month, a crypto winter a year.
var Scenarios = []Scenario{
	{Name: "Crypto crash -30%", Description: "Every crypto holding falls 30%", Shock: all("-0.30"), Horizon: 30},
	{Name: "Crypto winter -50%", Description: "Every crypto holding falls 50%", Shock: all("-0.50"), Horizon: 365},
	{Name: "Flash crash -15%", Description: "Every crypto holding falls 15%", Shock: all("-0.15"), Horizon: 1},
	{Name: "Altcoins -25%", Description: "Every holding other than BTC falls 25%; BTC is unchanged",
		Shock: func(sym string) decimal.Decimal {
			if sym == "BTC-USD" {
				return decimal.Zero
			}
			return decimal.RequireFromString("-0.25")
		}, Horizon: 30},
}

// StressResult is one scenario applied to the holdings.
type StressResult struct {
	Scenario string `json:"scenario"`
	// PortfolioImpact is the sum over holdings of market value x shock, each to the cent (USD).
	PortfolioImpact decimal.Decimal `json:"portfolioImpact"`
	// ImpactPercent is impact / portfolio value x 100, two places; null without a positive value.
	ImpactPercent *decimal.Decimal `json:"impactPercent"`
	// Probability is the share of the history's windows in which a move
	// as large happened (see StressFrequency); null when it never did or
	// there is nothing to measure, ProbabilityBasis says which.
	Probability      *float64 `json:"probability"`
	ProbabilityBasis string   `json:"probabilityBasis"`
	Frequency
	Description string `json:"description"`
}

// StressTest applies a scenario to the holdings of a portfolio worth value;
// the probability is left for WithFrequency.
func StressTest(sc Scenario, holdings []Holding, value decimal.Decimal) StressResult {
	r := StressResult{Scenario: sc.Name, Description: sc.Description, ProbabilityBasis: "Not estimated", Frequency: Frequency{HorizonDays: sc.Horizon}}
	for _, h := range holdings {
		r.PortfolioImpact = r.PortfolioImpact.Add(h.MarketValue.Mul(sc.Shock(h.Symbol)).Round(2))
	}
	if value.IsPositive() {
		p := r.PortfolioImpact.Mul(hundred).Div(value).Round(2)
		r.ImpactPercent = &p
	}
	return r
}

// WithFrequency sets a result's probability from how often its move happened.
func (r StressResult) WithFrequency(f Frequency) StressResult {
	r.Frequency, r.Probability, r.ProbabilityBasis = f, f.Probability(), f.Basis()
	return r
}

// VarianceContributions splits the variance of a portfolio, w'Sw, by asset:
// asset i contributes w_i (S w)_i, S the sample covariance matrix of the
// assets' daily returns (returns[i], all the same length) and w their
// current weights (market value / portfolio value). It returns the
// contributions and the portfolio variance; nil when any covariance is
// undefined (fewer than two returns).
func VarianceContributions(returns [][]float64, weights []float64) ([]float64, *float64) {
	n := len(returns)
	if n == 0 || n != len(weights) {
		return nil, nil
	}
	cov := make([][]float64, n)
	for i := range n {
		cov[i] = make([]float64, n)
		for j := range n {
			c := Covariance(returns[i], returns[j])
			if c == nil {
				return nil, nil
			}
			cov[i][j] = *c
		}
	}
	contrib, total := make([]float64, n), 0.0
	for i := range n {
		sw := 0.0
		for j := range n {
			sw += cov[i][j] * weights[j]
		}
		contrib[i] = weights[i] * sw
		total += contrib[i]
	}
	return contrib, &total
}

// DiversificationRatio is sum(w_i s_i) / s_p: the weighted volatilities of
// the assets over the volatility of their mix (1 for one asset or perfectly
// correlated ones, higher the more the assets offset each other). s are
// sample deviations of the assets' daily returns; nil when undefined.
func DiversificationRatio(returns [][]float64, weights []float64) *float64 {
	_, variance := VarianceContributions(returns, weights)
	if variance == nil || *variance <= 0 {
		return nil
	}
	sum := 0.0
	for i := range returns {
		sum += weights[i] * *StdDev(returns[i])
	}
	return F(sum / math.Sqrt(*variance))
}
