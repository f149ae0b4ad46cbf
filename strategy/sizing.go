package strategy

import (
	"github.com/shopspring/decimal"

	"kestrel/risk"
)

// BuyQuantity sizes a BUY (see the package doc), for the live engine and
// for backtests alike: value is the portfolio value, held the position's
// value at the price, paid what one unit is expected to cost (the ask, and
// a backtest's slippage), step the size increment. atTarget reports a
// notional below the minimum trade amount (nothing to buy); a zero qty
// otherwise means the order rounds to zero. target is the position aimed at.
func BuyQuantity(c Config, l risk.Limits, value, held, paid, step decimal.Decimal) (qty, target decimal.Decimal, atTarget bool) {
	target = value.Mul(decimal.NewFromFloat(c.MaxPositionSize)).Mul(decimal.NewFromFloat(c.RiskMultiplier))
	// The caps are met with a margin: the price may tick between sizing and
	// the risk check, and an order sized exactly at a cap would then be refused.
	target = decimal.Min(target, value.Mul(l.MaxPositionSize).Mul(capMargin))
	notional := decimal.Min(target.Sub(held), l.MaxTradeAmount.Mul(capMargin))
	if notional.LessThan(l.MinTradeAmount) {
		return decimal.Zero, target, true
	}
	return notional.Div(paid).Div(step).Floor().Mul(step), target, false
}
