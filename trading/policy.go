package trading

import (
	"github.com/shopspring/decimal"

	"kestrel/risk"
	"kestrel/settings"
)

// Policy is what the trading settings ask of the gateway.
type Policy struct {
	Limits risk.Limits
	// StopLoss (with StopLossPercent) puts a protective stop-loss SELL under
	// every BUY fill at fill price x (1 - StopLossPercent).
	StopLoss        bool
	StopLossPercent decimal.Decimal
	// TrailingStop makes that stop-loss a trailing stop at StopLossPercent:
	// it follows each new high instead of staying at its first price.
	TrailingStop bool
	// TakeProfit (with TakeProfitPercent) puts a take-profit limit SELL at
	// fill price x (1 + TakeProfitPercent); with a stop-loss they are one
	// one-cancels-other group.
	TakeProfit        bool
	TakeProfitPercent decimal.Decimal
}

// DefaultPolicy is the settings' defaults.
func DefaultPolicy() Policy { return PolicyFrom(settings.Defaults()) }

// PolicyFrom maps the platform settings to the gateway's policy.
func PolicyFrom(s settings.Settings) Policy {
	r, a := s.Trading.RiskManagement, s.Trading.Automation
	return Policy{
		Limits: risk.Limits{
			MaxPositionSize:  decimal.NewFromFloat(r.MaxPositionSize),
			DailyLossLimit:   decimal.NewFromFloat(r.DailyLossLimit),
			MaxDrawdown:      decimal.NewFromFloat(r.MaxDrawdown),
			MaxOpenPositions: r.MaxOpenPositions,
			MaxDailyTrades:   r.MaxDailyTrades,
			MinTradeAmount:   decimal.NewFromFloat(r.MinTradeAmount),
			MaxTradeAmount:   decimal.NewFromFloat(r.MaxTradeAmount),
			MaxLeverage:      decimal.NewFromFloat(r.MaxLeverage),
		},
		StopLoss:          a.EnableStopLoss,
		StopLossPercent:   decimal.NewFromFloat(r.StopLossPercent),
		TrailingStop:      a.TrailingStopLoss,
		TakeProfit:        a.EnableTakeProfit,
		TakeProfitPercent: decimal.NewFromFloat(r.TakeProfitPercent),
	}
}
