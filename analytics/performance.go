package analytics

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Performance is the spec's Performance summary.
type Performance struct {
	DailyPnL         decimal.Decimal `json:"daily_pnl"`
	TotalTrades      int             `json:"total_trades"`
	SuccessfulTrades int             `json:"successful_trades"`
	FailedTrades     int             `json:"failed_trades"`
	WinRate          float64         `json:"win_rate"`
	TotalExposure    decimal.Decimal `json:"total_exposure"`
	PortfolioValue   decimal.Decimal `json:"portfolio_value"`
	ActivePositions  int             `json:"active_positions"`
	PendingOrders    int             `json:"pending_orders"`
}

// PerformanceOf summarises the fills, the live orders and a valuation. A
// trade is a closed round trip (RoundTrips): it succeeded when its net P&L
// after fees is above zero and failed otherwise; the win rate is WinLossOf's,
// the same as every other screen's. Money is rounded to the cent.
func PerformanceOf(orders []domain.Order, fills []domain.Fill, v Valuation, dailyPnL decimal.Decimal) Performance {
	var p Performance
	for _, o := range orders {
		if o.Status.Live() {
			p.PendingOrders++
		}
	}
	wl := WinLossOf(RoundTrips(fills))
	p.TotalTrades, p.SuccessfulTrades, p.FailedTrades, p.WinRate = wl.Total, wl.Won, wl.Lost, wl.WinRate
	p.ActivePositions = len(OpenPositions(v.Positions))
	p.TotalExposure = Exposure(v.Positions)
	p.PortfolioValue = v.Total.Round(2)
	p.DailyPnL = dailyPnL.Round(2)
	return p
}

// WinRate is won/total as a percentage rounded half away from zero to one
// place, computed exactly (23 of 80 is 28.75% -> 28.8); zero without trades.
func WinRate(won, total int) float64 {
	if total <= 0 {
		return 0
	}
	return decimal.NewFromInt(int64(won)).Mul(hundred).Div(decimal.NewFromInt(int64(total))).Round(1).InexactFloat64()
}
