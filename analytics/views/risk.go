package views

import (
	"context"
	"math"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
)

// varWindow is how many preceding daily returns a rolling VaR uses.
const varWindow = 30

type riskMetrics struct {
	PortfolioValue          decimal.Decimal  `json:"portfolioValue"`
	TotalExposure           decimal.Decimal  `json:"totalExposure"`
	Var95                   *float64         `json:"var95"` // loss fraction of the value
	Var99                   *float64         `json:"var99"`
	Var95Amount             *decimal.Decimal `json:"var95Amount"` // USD of the current value
	Var99Amount             *decimal.Decimal `json:"var99Amount"`
	ExpectedShortfall       *float64         `json:"expectedShortfall"` // at 95%
	ExpectedShortfallAmount *decimal.Decimal `json:"expectedShortfallAmount"`
	ParametricVar95         *float64         `json:"parametricVar95"`
	ParametricVar99         *float64         `json:"parametricVar99"`
	MaxDrawdown             *float64         `json:"maxDrawdown"`     // fraction of the peak
	CurrentDrawdown         *float64         `json:"currentDrawdown"` // fraction of the peak
	Volatility              *float64         `json:"volatility"`
	Beta                    *float64         `json:"beta"`
	SharpeRatio             *float64         `json:"sharpeRatio"`
	SortinoRatio            *float64         `json:"sortinoRatio"`
	CalmarRatio             *float64         `json:"calmarRatio"`
	RecoveryFactor          *float64         `json:"recoveryFactor"`
	ReturnsUsed             int              `json:"returnsUsed"`
}

type varPoint struct {
	Date      string           `json:"date"`
	Var95     *decimal.Decimal `json:"var95"` // USD
	Var99     *decimal.Decimal `json:"var99"`
	ActualPnL decimal.Decimal  `json:"actualPnL"`
}

type drawdownView struct {
	Date       string   `json:"date"`
	Drawdown   float64  `json:"drawdown"`
	Underwater bool     `json:"underwater"`
	Recovery   *float64 `json:"recovery"`
}

type correlationRisk struct {
	Asset1           string   `json:"asset1"`
	Asset2           string   `json:"asset2"`
	Correlation      *float64 `json:"correlation"`
	RiskContribution *float64 `json:"riskContribution"` // percent of portfolio variance
}

type riskComponent struct {
	Component    string   `json:"component"`
	Contribution float64  `json:"contribution"` // to the daily variance
	Percentage   *float64 `json:"percentage"`
}

func round6p(v *float64) *float64 {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil
	}
	return analytics.F(math.Round(*v*1e6) / 1e6)
}

// Risk is the risk tab for q.
func (vw *Views) Risk(ctx context.Context, q Query) (map[string]any, error) {
	b, err := vw.book(ctx, q)
	if err != nil {
		return nil, err
	}
	value, rs := b.portfolio.TotalValue, b.returns
	m := riskMetrics{PortfolioValue: value, TotalExposure: b.portfolio.TotalExposure, ReturnsUsed: len(rs),
		Var95: round6p(analytics.HistoricalVaR(rs, 0.95)), Var99: round6p(analytics.HistoricalVaR(rs, 0.99)),
		ExpectedShortfall: round6p(analytics.ExpectedShortfall(rs, 0.95)),
		ParametricVar95:   round6p(analytics.ParametricVaR(rs, 0.95)), ParametricVar99: round6p(analytics.ParametricVaR(rs, 0.99)),
		Volatility: round4p(analytics.Volatility(rs)), Beta: round4p(b.beta),
		SharpeRatio: round4p(ratio(analytics.Sharpe, rs)), SortinoRatio: round4p(ratio(analytics.Sortino, rs))}
	m.Var95Amount = analytics.Money(analytics.HistoricalVaR(rs, 0.95), value)
	m.Var99Amount = analytics.Money(analytics.HistoricalVaR(rs, 0.99), value)
	m.ExpectedShortfallAmount = analytics.Money(analytics.ExpectedShortfall(rs, 0.95), value)

	dds := analytics.Drawdowns(b.days)
	drawdowns := []drawdownView{}
	for _, d := range dds {
		drawdowns = append(drawdowns, drawdownView{Date: d.Date.Format("2006-01-02"), Drawdown: math.Round(d.Drawdown*1e6) / 1e6, Underwater: d.Underwater, Recovery: round4p(d.Recovery)})
	}
	if n := len(b.days); n >= 2 {
		values := make([]decimal.Decimal, n)
		for i, d := range b.days {
			values[i] = d.Value
		}
		mdd := analytics.MaxDrawdown(values).InexactFloat64()
		m.MaxDrawdown = round6p(&mdd)
		if len(dds) > 0 {
			m.CurrentDrawdown = round6p(analytics.F(-dds[len(dds)-1].Drawdown))
		}
		years := b.days[n-1].Date.Sub(b.days[0].Date).Hours() / 24 / analytics.DaysPerYear
		if mdd > 0 && len(rs) >= 2 {
			m.CalmarRatio = round4p(analytics.F(analytics.Calmar(analytics.CAGR(values[0], values[n-1], years), mdd)))
		}
		// Recovery factor: net change over the largest fall in USD.
		var peak, worst decimal.Decimal
		for i, v := range values {
			if i == 0 || v.GreaterThan(peak) {
				peak = v
			}
			worst = decimal.Max(worst, peak.Sub(v))
		}
		if worst.IsPositive() {
			m.RecoveryFactor = round4p(analytics.F(values[n-1].Sub(values[0]).Div(worst).InexactFloat64()))
		}
	}

	history := []varPoint{}
	for k := 2; k < len(b.daily); k++ {
		window := rs[max(0, k-varWindow):k]
		prev, cur := b.days[k], b.days[k+1] // daily[k] runs from days[k] to days[k+1] when no day was skipped
		if !b.days[k+1].Date.Equal(b.daily[k].Date) {
			continue
		}
		history = append(history, varPoint{Date: cur.Date.Format("2006-01-02"),
			Var95: analytics.Money(analytics.HistoricalVaR(window, 0.95), prev.Value),
			Var99: analytics.Money(analytics.HistoricalVaR(window, 0.99), prev.Value), ActualPnL: cur.Value.Sub(prev.Value).Round(2)})
	}

	holdings := make([]analytics.Holding, len(b.holdings))
	for i, h := range b.holdings {
		holdings[i] = analytics.Holding{Symbol: h.Symbol, MarketValue: h.MarketValue}
	}
	closes, err := vw.historyCloses(ctx)
	if err != nil {
		return nil, err
	}
	stress := []analytics.StressResult{}
	scenarios := append([]analytics.Scenario{}, analytics.Scenarios...)
	for _, w := range []struct {
		days  int
		label string
	}{{1, "Worst day in the data"}, {7, "Worst week in the data"}} {
		if sc, ok := analytics.WorstHistorical(closes, holdings, w.days, w.label); ok {
			scenarios = append(scenarios, sc)
		}
	}
	for _, sc := range scenarios {
		stress = append(stress, analytics.StressTest(sc, holdings, value).WithFrequency(analytics.StressFrequency(sc, closes, holdings)))
	}
	market := make([]string, 0, len(closes))
	for _, sym := range vw.Prices.Symbols() {
		if len(closes[sym]) > 0 {
			market = append(market, sym)
		}
	}
	scenarioAnalysis := analytics.ScenarioAnalysis(closes, holdings, value, market)

	contrib, variance := analytics.VarianceContributions(b.assets, b.weights)
	decomposition, pairs := []riskComponent{}, []correlationRisk{}
	for i, h := range b.holdings {
		if contrib == nil {
			break
		}
		c := riskComponent{Component: h.Symbol, Contribution: contrib[i]}
		if *variance > 0 {
			c.Percentage = round4p(analytics.F(contrib[i] / *variance * 100))
		}
		decomposition = append(decomposition, c)
	}
	for i := range b.holdings {
		for j := i + 1; j < len(b.holdings); j++ {
			p := correlationRisk{Asset1: b.holdings[i].Symbol, Asset2: b.holdings[j].Symbol, Correlation: round4p(analytics.Correlation(b.assets[i], b.assets[j]))}
			if c := analytics.Covariance(b.assets[i], b.assets[j]); c != nil && variance != nil && *variance > 0 {
				p.RiskContribution = round4p(analytics.F(2 * b.weights[i] * b.weights[j] * *c / *variance * 100))
			}
			pairs = append(pairs, p)
		}
	}
	cov, err := vw.recordCoverage(ctx, q.Since, q.Now)
	if err != nil {
		return nil, err
	}
	limits, err := vw.Account.Limits(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"limitsState":       limits,
		"period":            q.Period,
		"coverage":          cov,
		"benchmark":         benchmark(q),
		"metrics":           m,
		"varHistory":        history,
		"drawdownHistory":   drawdowns,
		"stressTests":       stress,
		"scenarioAnalysis":  scenarioAnalysis,
		"correlationRisks":  pairs,
		"riskDecomposition": decomposition,
	}, nil
}
