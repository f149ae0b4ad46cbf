// Package risk decides whether an order may be placed, from the platform's
// risk limits and a snapshot of the account. It does no I/O: the trading
// service gathers the snapshot, risk.Check judges it.
package risk

import (
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Limits are the trading.riskManagement settings (fractions are of portfolio value).
type Limits struct {
	MaxPositionSize  decimal.Decimal // largest single position after the trade, e.g. 0.1
	DailyLossLimit   decimal.Decimal // stop opening trades after losing this share today, e.g. 0.05
	MaxDrawdown      decimal.Decimal // stop opening trades this far below the peak, e.g. 0.15
	MaxOpenPositions int
	MaxDailyTrades   int
	MinTradeAmount   decimal.Decimal // USD
	MaxTradeAmount   decimal.Decimal // USD
}

// DefaultLimits are the spec's settings defaults (section 9).
func DefaultLimits() Limits {
	return Limits{
		MaxPositionSize:  decimal.RequireFromString("0.1"),
		DailyLossLimit:   decimal.RequireFromString("0.05"),
		MaxDrawdown:      decimal.RequireFromString("0.15"),
		MaxOpenPositions: 10,
		MaxDailyTrades:   50,
		MinTradeAmount:   decimal.NewFromInt(10),
		MaxTradeAmount:   decimal.NewFromInt(10000),
	}
}

// Snapshot is the account state an order is judged against.
type Snapshot struct {
	EmergencyStop   bool
	PortfolioValue  decimal.Decimal            // cash + positions at current prices
	StartOfDayValue decimal.Decimal            // portfolio value at 00:00 UTC (zero: unknown)
	PeakValue       decimal.Decimal            // highest recorded portfolio value (zero: unknown)
	PositionValues  map[string]decimal.Decimal // symbol -> current value of open positions
	TradesToday     int                        // orders placed since 00:00 UTC
}

// Order is what is about to be placed, valued at its expected price.
type Order struct {
	Symbol   string
	Side     domain.Side
	Notional decimal.Decimal // quantity x expected price, USD
}

// Check returns nil when the order may be placed, or a rejected error with the reason.
// Sells that reduce a position are not blocked by the loss, drawdown, size or
// count limits: cutting risk is always allowed.
func Check(l Limits, s Snapshot, o Order) error {
	if s.EmergencyStop {
		return reject("Trading is halted: emergency stop is active")
	}
	if o.Notional.LessThan(l.MinTradeAmount) {
		return reject(fmt.Sprintf("Trade amount $%s is below the minimum trade amount of $%s", usd(o.Notional), usd(l.MinTradeAmount)))
	}
	if o.Notional.GreaterThan(l.MaxTradeAmount) {
		return reject(fmt.Sprintf("Trade amount $%s exceeds the maximum trade amount of $%s", usd(o.Notional), usd(l.MaxTradeAmount)))
	}
	if l.MaxDailyTrades > 0 && s.TradesToday >= l.MaxDailyTrades {
		return reject(fmt.Sprintf("Daily trade limit reached (%d trades today)", l.MaxDailyTrades))
	}
	if o.Side == domain.Sell {
		return nil
	}
	if err := checkLosses(l, s); err != nil {
		return err
	}
	held, open := s.PositionValues[o.Symbol]
	if !open && l.MaxOpenPositions > 0 && len(s.PositionValues) >= l.MaxOpenPositions {
		return reject(fmt.Sprintf("Maximum open positions reached (%d)", l.MaxOpenPositions))
	}
	if s.PortfolioValue.IsPositive() {
		share := held.Add(o.Notional).Div(s.PortfolioValue)
		if share.GreaterThan(l.MaxPositionSize) {
			return reject(fmt.Sprintf("Position in %s would be %s%% of portfolio value; the maximum position size is %s%%",
				o.Symbol, pct(share), pct(l.MaxPositionSize)))
		}
	}
	return nil
}

func checkLosses(l Limits, s Snapshot) error {
	if s.StartOfDayValue.IsPositive() {
		loss := s.StartOfDayValue.Sub(s.PortfolioValue).Div(s.StartOfDayValue)
		if loss.GreaterThanOrEqual(l.DailyLossLimit) {
			return reject(fmt.Sprintf("Daily loss limit reached: down %s%% today (limit %s%%)", pct(loss), pct(l.DailyLossLimit)))
		}
	}
	if s.PeakValue.IsPositive() {
		dd := s.PeakValue.Sub(s.PortfolioValue).Div(s.PeakValue)
		if dd.GreaterThanOrEqual(l.MaxDrawdown) {
			return reject(fmt.Sprintf("Maximum drawdown reached: %s%% below peak (limit %s%%)", pct(dd), pct(l.MaxDrawdown)))
		}
	}
	return nil
}

func reject(msg string) error { return &domain.Error{Code: domain.ERejected, Message: msg} }

func usd(d decimal.Decimal) string { return d.StringFixed(2) }

func pct(frac decimal.Decimal) string { return frac.Mul(decimal.NewFromInt(100)).StringFixed(1) }
