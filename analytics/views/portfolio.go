package views

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

// TradingView is the trading tab: the account's trade statistics over the
// period (one symbol's when asked).
type TradingView struct {
	Period   string             `json:"period"`
	Symbol   string             `json:"symbol"`
	Coverage analytics.Coverage `json:"coverage"`
	analytics.TradingStats
}

// Trading is the trading tab for q.
func (vw *Views) Trading(ctx context.Context, q Query) (TradingView, error) {
	fills, err := vw.Account.Fills(ctx)
	if err != nil {
		return TradingView{}, err
	}
	if q.Symbol != "" {
		fills = slices.DeleteFunc(fills, func(f domain.Fill) bool { return f.Symbol != q.Symbol })
	}
	st := analytics.TradingStatsOf(fills, q.Since)
	cov, err := vw.recordCoverage(ctx, q.Since, q.Now)
	if err != nil {
		return TradingView{}, err
	}
	return TradingView{q.Period, q.Symbol, cov, st}, nil
}

// dayValues are the recorded portfolio values at UTC day ends in the period.
func (vw *Views) dayValues(ctx context.Context, q Query) ([]analytics.DayValue, error) {
	pts, err := vw.Record.PortfolioPoints(ctx, q.Since, q.Now.Add(time.Second), 10_000_000)
	if err != nil {
		return nil, err
	}
	return analytics.DayEnds(pts), nil
}

// closeReturns are a symbol's daily close-to-close returns in the period;
// none when the market has no daily candles for it.
func (vw *Views) closeReturns(ctx context.Context, symbol string, q Query) []analytics.DayReturn {
	since := q.Since
	if since.IsZero() {
		since = q.Now.Add(-5 * 365 * 24 * time.Hour)
	}
	cs, err := vw.Prices.Candles(ctx, symbol, domain.OneDay, since, q.Now, 10000)
	if err != nil {
		return nil
	}
	return analytics.DailyReturns(analytics.DailyCloses(cs))
}

// alignAll keeps the dates every series has, as plain returns in date order.
func alignAll(series [][]analytics.DayReturn) [][]float64 {
	out := make([][]float64, len(series))
	if len(series) == 0 {
		return out
	}
	count := map[time.Time]int{}
	for _, s := range series {
		for _, r := range s {
			count[r.Date]++
		}
	}
	for i, s := range series {
		out[i] = []float64{}
		for _, r := range s {
			if count[r.Date] == len(series) {
				out[i] = append(out[i], r.Return)
			}
		}
	}
	return out
}

func benchmark(q Query) string {
	if q.Symbol != "" {
		return q.Symbol
	}
	return "BTC-USD"
}

// ratio is an annualised ratio of daily returns, null when undefined.
func ratio(f func([]float64, float64) float64, daily []float64) *float64 {
	if len(daily) < 2 {
		return nil
	}
	v := f(daily, analytics.DaysPerYear)
	if v == 0 {
		return nil
	}
	return &v
}

type holdingView struct {
	Symbol               string           `json:"symbol"`
	Quantity             decimal.Decimal  `json:"quantity"`
	CurrentPrice         decimal.Decimal  `json:"currentPrice"`
	MarketValue          decimal.Decimal  `json:"marketValue"`
	CostBasis            decimal.Decimal  `json:"costBasis"`
	UnrealizedPnL        decimal.Decimal  `json:"unrealizedPnL"`
	UnrealizedPnLPercent *decimal.Decimal `json:"unrealizedPnLPercent"`
	Allocation           *decimal.Decimal `json:"allocation"` // percent of total value
}

type valuePoint struct {
	Date  string          `json:"date"`
	Value decimal.Decimal `json:"value"`
}

type correlationMatrix struct {
	Symbols []string     `json:"symbols"`
	Matrix  [][]*float64 `json:"matrix"`
}

// pct is part / whole x 100 to two places; null when whole is not positive.
func pct(part, whole decimal.Decimal) *decimal.Decimal {
	if !whole.IsPositive() {
		return nil
	}
	p := part.Mul(decimal.NewFromInt(100)).Div(whole).Round(2)
	return &p
}

// book is what both the portfolio and risk views start from.
type book struct {
	portfolio analytics.Portfolio
	holdings  []holdingView
	days      []analytics.DayValue
	daily     []analytics.DayReturn
	returns   []float64
	beta      *float64
	// assets are the held symbols' aligned daily close returns and weights.
	assets  [][]float64
	weights []float64
}

func (vw *Views) book(ctx context.Context, q Query) (book, error) {
	var b book
	p, err := vw.Account.Portfolio(ctx)
	if err != nil {
		return b, err
	}
	b.portfolio = p
	b.holdings = []holdingView{}
	var series [][]analytics.DayReturn
	for _, pos := range p.Positions {
		cost := pos.Quantity.Mul(pos.AvgPrice).Round(2)
		b.holdings = append(b.holdings, holdingView{Symbol: pos.Symbol, Quantity: pos.Quantity, CurrentPrice: pos.CurrentPrice,
			MarketValue: pos.CurrentValue, CostBasis: cost, UnrealizedPnL: pos.UnrealizedPnL,
			UnrealizedPnLPercent: pct(pos.UnrealizedPnL, cost), Allocation: pct(pos.CurrentValue, p.TotalValue)})
		series = append(series, vw.closeReturns(ctx, pos.Symbol, q))
		w := 0.0
		if p.TotalValue.IsPositive() {
			w = pos.CurrentValue.Div(p.TotalValue).InexactFloat64()
		}
		b.weights = append(b.weights, w)
	}
	b.assets = alignAll(series)
	if b.days, err = vw.dayValues(ctx, q); err != nil {
		return b, err
	}
	b.daily = analytics.DailyReturns(b.days)
	b.returns = analytics.Values(b.daily)
	b.beta = analytics.Beta(analytics.Align(b.daily, vw.closeReturns(ctx, benchmark(q), q)))
	return b, nil
}

// Portfolio is the portfolio tab for q.
func (vw *Views) Portfolio(ctx context.Context, q Query) (map[string]any, error) {
	b, err := vw.book(ctx, q)
	if err != nil {
		return nil, err
	}
	cost := decimal.Zero
	for _, h := range b.holdings {
		cost = cost.Add(h.CostBasis)
	}
	history := []valuePoint{}
	for _, d := range b.days {
		history = append(history, valuePoint{Date: d.Date.Format("2006-01-02"), Value: d.Value.Round(2)})
	}
	allocation, err := vw.allocationHistory(ctx, q)
	if err != nil {
		return nil, err
	}
	syms := vw.Prices.Symbols()
	all := make([][]analytics.DayReturn, len(syms))
	for i, sym := range syms {
		all[i] = vw.closeReturns(ctx, sym, q)
	}
	m := correlationMatrix{Symbols: syms, Matrix: make([][]*float64, len(syms))}
	for i := range syms {
		m.Matrix[i] = make([]*float64, len(syms))
		for j := range syms {
			m.Matrix[i][j] = round4p(analytics.Correlation(analytics.Align(all[i], all[j])))
		}
	}
	cov, err := vw.recordCoverage(ctx, q.Since, q.Now)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"period":                    q.Period,
		"coverage":                  cov,
		"benchmark":                 benchmark(q),
		"totalValue":                b.portfolio.TotalValue,
		"cashBalance":               b.portfolio.CashBalance,
		"totalCost":                 cost,
		"totalUnrealizedPnL":        b.portfolio.TotalUnrealizedPnL,
		"totalUnrealizedPnLPercent": pct(b.portfolio.TotalUnrealizedPnL, cost),
		"diversificationRatio":      round4p(analytics.DiversificationRatio(b.assets, b.weights)),
		"beta":                      round4p(b.beta),
		"volatility":                round4p(analytics.Volatility(b.returns)),
		"sharpeRatio":               round4p(ratio(analytics.Sharpe, b.returns)),
		"holdings":                  b.holdings,
		"valueHistory":              history,
		"allocationHistory":         allocation,
		"correlationMatrix":         m,
	}, nil
}

func round4p(v *float64) *float64 {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil
	}
	return analytics.F(math.Round(*v*1e4) / 1e4)
}

type allocationView struct {
	Date string `json:"date"`
	analytics.AllocationDay
}

// allocationHistory is each holding's share of the portfolio at every UTC
// day end from the period's start (or the account's first fill, if later)
// through today, valued at the market's daily closes (today: the price now).
// Empty before the account has traded.
func (vw *Views) allocationHistory(ctx context.Context, q Query) ([]allocationView, error) {
	out := []allocationView{}
	fills, err := vw.Account.Fills(ctx)
	if err != nil || len(fills) == 0 {
		return out, err
	}
	balances, err := vw.Account.Balances(ctx)
	if err != nil {
		return out, err
	}
	start := analytics.UTCDay(fills[0].Time)
	syms := map[string]bool{}
	for _, f := range fills {
		start = minTime(start, analytics.UTCDay(f.Time))
		syms[f.Symbol] = true
	}
	for _, b := range balances {
		if b.Currency != analytics.QuoteCurrency && b.Total().IsPositive() {
			syms[analytics.Pair(b.Currency)] = true
		}
	}
	if since := analytics.UTCDay(q.Since); since.After(start) {
		start = since
	}
	closes := map[string]map[time.Time]decimal.Decimal{}
	for sym := range syms {
		cs, err := vw.Prices.Candles(ctx, sym, domain.OneDay, start, q.Now, 10000)
		if err != nil {
			continue // a symbol the market does not price: days holding it are left out
		}
		closes[sym] = map[time.Time]decimal.Decimal{}
		for _, c := range cs {
			closes[sym][analytics.UTCDay(c.Time)] = c.Close
		}
	}
	var days []time.Time
	for d := start; !d.After(q.Now); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	for _, d := range analytics.AllocationHistory(fills, balances, closes, days) {
		out = append(out, allocationView{Date: d.Date.Format(time.DateOnly), AllocationDay: d})
	}
	return out, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
