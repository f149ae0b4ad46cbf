package analytics

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// StrategyPerformance is the spec's strategy performance, from the fills of
// one strategy's orders.
type StrategyPerformance struct {
	StrategyName  string          `json:"strategy_name"`
	TotalTrades   int             `json:"total_trades"` // closed round trips
	WinningTrades int             `json:"winning_trades"`
	WinRate       float64         `json:"win_rate"` // percent, 1 decimal
	RealizedPnL   decimal.Decimal `json:"realized_pnl"`
	UnrealizedPnL decimal.Decimal `json:"unrealized_pnl"`
	TotalPnL      decimal.Decimal `json:"total_pnl"` // realized + unrealized, USD
	// MaxDrawdown is the largest fall of cumulative realized P&L from its
	// running peak, in USD (a strategy has no capital of its own to divide by).
	MaxDrawdown decimal.Decimal `json:"max_drawdown"`
	// SharpeRatio is per closed round trip (mean / sample deviation of each
	// trip's net P&L on its entry cost), not annualised.
	SharpeRatio float64 `json:"sharpe_ratio"`
}

// StrategyOf books the fills (any order) of the strategy per symbol at
// average cost and values what is still held at prices.
func StrategyOf(name string, fills []domain.Fill, prices Prices) StrategyPerformance {
	p := StrategyPerformance{StrategyName: name}
	sorted := inTimeOrder(fills)
	books := map[string]domain.PositionBook{}
	var cum, peak decimal.Decimal
	var own []domain.Fill
	for _, f := range sorted {
		if f.Strategy != name {
			continue
		}
		own = append(own, f)
		b, ok := books[f.Symbol]
		if !ok {
			b = domain.NewPositionBook(f.Symbol)
		}
		next := b.Apply(f)
		if f.Side == domain.Sell {
			gain := next.Realized.Sub(b.Realized)
			cum = cum.Add(gain)
			peak = decimal.Max(peak, cum)
			p.MaxDrawdown = decimal.Max(p.MaxDrawdown, peak.Sub(cum))
		}
		books[f.Symbol] = next
	}
	for sym, b := range books {
		p.RealizedPnL = p.RealizedPnL.Add(b.Realized)
		if px, ok := prices[sym]; ok && b.Quantity.IsPositive() {
			p.UnrealizedPnL = p.UnrealizedPnL.Add(b.Quantity.Mul(px).Sub(b.Cost))
		}
	}
	trips := RoundTrips(own)
	wl := WinLossOf(trips)
	p.TotalTrades, p.WinningTrades, p.WinRate = wl.Total, wl.Won, wl.WinRate
	p.RealizedPnL, p.UnrealizedPnL = p.RealizedPnL.Round(2), p.UnrealizedPnL.Round(2)
	p.TotalPnL = p.RealizedPnL.Add(p.UnrealizedPnL)
	p.MaxDrawdown = p.MaxDrawdown.Round(2)
	p.SharpeRatio = Sharpe(tripReturns(trips), 1)
	return p
}
