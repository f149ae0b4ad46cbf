package strategy

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/risk"
)

// BuyQuantity sizes a BUY (see the package doc), for the live engine and
// for backtests alike: value is the portfolio value, held the position's
// value at the price, paid what one unit is expected to cost (the ask, and
// a backtest's slippage), step the size increment. atTarget reports a
// notional below the minimum trade amount (nothing to buy); a zero qty
// otherwise means the order rounds to zero. target is the position aimed at.
func BuyQuantity(c Config, l risk.Limits, value, held, paid, step decimal.Decimal) (qty, target decimal.Decimal, atTarget bool) {
	return NewSizing(c, l).BuyQuantity(value, held, paid, step)
}

// Sizing is BuyQuantity's constants for one configuration and set of
// limits, worked out once (a backtest sizes thousands of BUYs with them).
type Sizing struct {
	share    decimal.Decimal // max_position_size x risk_multiplier, the config's floats as decimals
	capShare decimal.Decimal // the limit's maximum position size, with its margin
	maxTrade decimal.Decimal // the maximum trade amount, with its margin
	minTrade decimal.Decimal
}

// NewSizing works out BuyQuantity's constants.
func NewSizing(c Config, l risk.Limits) Sizing {
	return Sizing{share: decimal.NewFromFloat(c.MaxPositionSize).Mul(decimal.NewFromFloat(c.RiskMultiplier)),
		capShare: l.MaxPositionSize.Mul(capMargin), maxTrade: l.MaxTradeAmount.Mul(capMargin), minTrade: l.MinTradeAmount}
}

// BuyQuantity is the package's BuyQuantity with these constants (the
// products are exact, so grouping them changes no value; domain.Times and
// the rest are the decimal operations, value and shape).
func (s Sizing) BuyQuantity(value, held, paid, step decimal.Decimal) (qty, target decimal.Decimal, atTarget bool) {
	target = domain.Times(value, s.share)
	// The caps are met with a margin: the price may tick between sizing and
	// the risk check, and an order sized exactly at a cap would then be refused.
	target = domain.Min(target, domain.Times(value, s.capShare))
	notional := domain.Min(domain.Minus(target, held), s.maxTrade)
	if domain.Cmp(notional, s.minTrade) < 0 {
		return decimal.Zero, target, true
	}
	return domain.Times(domain.DivFloor(domain.Div(notional, paid), step), step), target, false
}

// Constants are the figures BuyQuantity works with: the share of the value
// aimed at, the maximum position's share and the maximum trade (each with
// its margin), and the minimum trade (a backtest's integer sizing reads
// them).
func (s Sizing) Constants() (share, capShare, maxTrade, minTrade decimal.Decimal) {
	return s.share, s.capShare, s.maxTrade, s.minTrade
}
