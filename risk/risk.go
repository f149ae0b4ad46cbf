// Package risk decides whether an order may be placed, from the platform's
// risk limits and a snapshot of the account. It does no I/O: the trading
// gateway gathers the snapshot, risk.Check judges it.
//
// Risk rules stop new risk; they never stop a trader from reducing it. An
// order that only reduces a position (a SELL of at most the quantity held)
// passes every limit and the emergency stop.
package risk

import (
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Limits are the trading.riskManagement settings (fractions are of portfolio value).
type Limits struct {
	MaxPositionSize  decimal.Decimal // largest single exposure after the trade, e.g. 0.1
	DailyLossLimit   decimal.Decimal // stop opening trades after losing this share today, e.g. 0.05
	MaxDrawdown      decimal.Decimal // stop opening trades this far below the peak, e.g. 0.15
	MaxOpenPositions int
	MaxDailyTrades   int
	MinTradeAmount   decimal.Decimal // USD
	MaxTradeAmount   decimal.Decimal // USD
	// MaxLeverage caps total exposure at this multiple of equity. A spot
	// account cannot borrow, so values above 1 act as 1 (SpotLeverageCap).
	MaxLeverage decimal.Decimal
}

// Summary is the limits in one line (for AI prompts).
func (l Limits) Summary() string {
	return fmt.Sprintf("max position %s%% of portfolio, trades $%s-$%s, max %d open positions, daily loss limit %s%%, max drawdown %s%%; long only (spot)",
		l.MaxPositionSize.Shift(2), l.MinTradeAmount, l.MaxTradeAmount, l.MaxOpenPositions, l.DailyLossLimit.Shift(2), l.MaxDrawdown.Shift(2))
}

// SpotLeverageCap is the most leverage a spot account can take: none.
var SpotLeverageCap = decimal.NewFromInt(1)

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
		MaxLeverage:      decimal.NewFromInt(1),
	}
}

// Snapshot is the account state an order is judged against.
type Snapshot struct {
	EmergencyStop   bool
	PortfolioValue  decimal.Decimal // equity: cash + holdings at current prices
	StartOfDayValue decimal.Decimal // portfolio value at 00:00 UTC (zero: unknown)
	PeakValue       decimal.Decimal // highest recorded portfolio value (zero: unknown)
	// Exposure is, per symbol, the holding's value plus what resting BUY
	// limits and BUY stops would add if they filled.
	Exposure    map[string]decimal.Decimal
	TradesToday int // orders placed since 00:00 UTC, not rejected
}

// Order is what is about to be placed, valued at its expected price.
type Order struct {
	Symbol   string
	Side     domain.Side
	Notional decimal.Decimal // quantity x expected price, USD
	// Reduces marks a SELL of at most the quantity held: it only cuts risk.
	Reduces bool
	// Replaces is the exposure of a resting order this one replaces (a
	// modify), which no longer counts once the new one is in.
	Replaces decimal.Decimal
}

// MsgHalted is the refusal while the emergency stop is active.
const MsgHalted = "Trading is halted: emergency stop is active; only orders that reduce a position are accepted"

// Check returns nil when the order may be placed, or a rejected error with the reason.
func Check(l Limits, s Snapshot, o Order) error {
	if o.Reduces {
		return nil // cutting risk is always allowed
	}
	if s.EmergencyStop {
		return reject(MsgHalted)
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
		return nil // more than is held: the exchange refuses it for want of funds
	}
	if err := checkLosses(l, s); err != nil {
		return err
	}
	return checkExposure(l, s, o)
}

func checkExposure(l Limits, s Snapshot, o Order) error {
	held := s.Exposure[o.Symbol].Sub(o.Replaces)
	open := 0
	total := decimal.Zero
	for _, v := range s.Exposure {
		if v.IsPositive() {
			open++
		}
		total = total.Add(v)
	}
	if !held.IsPositive() && l.MaxOpenPositions > 0 && open >= l.MaxOpenPositions {
		return reject(fmt.Sprintf("Maximum open positions reached (%d)", l.MaxOpenPositions))
	}
	if !s.PortfolioValue.IsPositive() {
		return nil
	}
	share := held.Add(o.Notional).Div(s.PortfolioValue)
	if share.GreaterThan(l.MaxPositionSize) {
		shown, limit := pctAbove(share, l.MaxPositionSize)
		room := l.MaxPositionSize.Mul(s.PortfolioValue).Sub(held)
		more := "nothing more can be bought"
		if room.IsPositive() {
			more = fmt.Sprintf("at most $%s more can be bought", room.RoundDown(2).StringFixed(2))
		}
		return reject(fmt.Sprintf("Position in %s would be %s%% of portfolio value; the maximum position size is %s%% (%s)",
			o.Symbol, shown, limit, more))
	}
	lev := decimal.Min(l.MaxLeverage, SpotLeverageCap)
	if lev.IsPositive() {
		after := total.Sub(o.Replaces).Add(o.Notional).Div(s.PortfolioValue)
		if after.GreaterThan(lev) {
			return reject(fmt.Sprintf("Total exposure would be %sx equity; the maximum leverage is %sx (a spot account cannot borrow)",
				after.StringFixed(2), lev.String()))
		}
	}
	return nil
}

// CheckLosses is the part of Check that judges the account, not the order:
// the daily loss and drawdown limits. Backtests ask it alone when they know
// the order passes the rest.
func CheckLosses(l Limits, s Snapshot) error { return checkLosses(l, s) }

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

// pctAbove shows v and a limit it exceeds as percentages with as many places
// as it takes for v to read above the limit (10.04% against 10.0%, never
// "10.0% ... maximum 10.0%"), up to four.
func pctAbove(v, limit decimal.Decimal) (string, string) {
	hundred := decimal.NewFromInt(100)
	for places := int32(1); ; places++ {
		a, b := v.Mul(hundred).Truncate(places), limit.Mul(hundred).Round(places)
		if a.GreaterThan(b) || places == 4 {
			return a.StringFixed(places), b.StringFixed(places)
		}
	}
}
