package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Portfolio is the spec's Portfolio summary.
type Portfolio struct {
	TotalValue         decimal.Decimal   `json:"total_value"`
	CashBalance        decimal.Decimal   `json:"cash_balance"`
	TotalUnrealizedPnL decimal.Decimal   `json:"total_unrealized_pnl"`
	TotalRealizedPnL   decimal.Decimal   `json:"total_realized_pnl"`
	DailyPnL           decimal.Decimal   `json:"daily_pnl"`
	WeeklyPnL          decimal.Decimal   `json:"weekly_pnl"`
	PositionsCount     int               `json:"positions_count"`
	Positions          []domain.Position `json:"positions"`
	Diversification    Diversification   `json:"diversification"`
	TotalExposure      decimal.Decimal   `json:"total_exposure"`
	LastUpdated        time.Time         `json:"last_updated"`
}

// Diversification describes how concentrated the holdings are.
type Diversification struct {
	Symbols                   int             `json:"symbols"`
	LargestPositionPercentage decimal.Decimal `json:"largest_position_percentage"`
}

// PortfolioOf summarises a valuation at time at: the open positions largest
// first, unrealized P&L over them, realized P&L over every book (closed
// ones too), exposure and diversification. Money is rounded to the cent.
func PortfolioOf(v Valuation, dailyPnL, weeklyPnL decimal.Decimal, at time.Time) Portfolio {
	open := OpenPositions(v.Positions)
	sort.SliceStable(open, func(i, j int) bool { return open[i].CurrentValue.GreaterThan(open[j].CurrentValue) })
	p := Portfolio{TotalValue: v.Total.Round(2), CashBalance: v.Cash.Round(2), Positions: open, PositionsCount: len(open),
		Diversification: DiversificationOf(open, v.Total), TotalExposure: Exposure(open),
		DailyPnL: dailyPnL.Round(2), WeeklyPnL: weeklyPnL.Round(2), LastUpdated: at}
	for _, pos := range open {
		p.TotalUnrealizedPnL = p.TotalUnrealizedPnL.Add(pos.UnrealizedPnL)
	}
	for _, pos := range v.Positions {
		p.TotalRealizedPnL = p.TotalRealizedPnL.Add(pos.RealizedPnL)
	}
	p.TotalUnrealizedPnL = p.TotalUnrealizedPnL.Round(2)
	p.TotalRealizedPnL = p.TotalRealizedPnL.Round(2)
	return p
}

// DiversificationOf counts the open positions and gives the largest one's
// current value as a percentage of total (zero when total is not positive).
func DiversificationOf(positions []domain.Position, total decimal.Decimal) Diversification {
	open := OpenPositions(positions)
	largest := decimal.Zero
	for _, p := range open {
		largest = decimal.Max(largest, p.CurrentValue)
	}
	return Diversification{Symbols: len(open), LargestPositionPercentage: percent(largest, total)}
}
