// Package batch runs a sweep's technical-strategy trials in one batch:
// every indicator is computed once per distinct parameter value over the
// shared candles, each trial's signals are read from those shared series,
// and each trial keeps its own account in fixed point, with only the
// events (a signal acted on, a stop reached) doing any arithmetic. A trial
// whose configuration has an event shape the batch does not model is run
// by the event engine (backtest.Run) instead; Accepts decides which, from
// the configuration alone, before anything runs.
package batch

import (
	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/strategy"
)

// Engine names, as a sweep's trials report them.
const (
	Batched = "batched"
	Event   = "event"
)

// Accepts reports whether the batch models every event a request's run can
// have, and if not, why. It reads the configuration only:
//   - the technical strategy (rules on indicators), no AI model, no trade memory;
//   - no protective orders, or a plain stop-loss (no trailing stop, no take-profit);
//   - no volume cap (no partial fills) and no slippage;
//   - the risk limits that depend on the account's history off: the
//     maximum drawdown and daily loss at 100% or more, no daily trade
//     count (the order checks, trade amounts, position size and leverage,
//     are made as the event engine makes them);
//   - a price step that is a power of ten of 0 to 8 decimals, a taker fee
//     of at most 12 decimals, a half-spread of at most 8, and a capital
//     that fits the fixed point (cash at 8 + the price step's decimals in
//     62 bits: up to about 460 million with cents).
//
// The candles are checked once per batch, before any trial runs: prices on
// the product's grid, times in order (else every trial of the batch runs
// on the event engine). One case is found while running: an account that
// outgrows the fixed point; that trial is then run again on the event
// engine and says so.
func Accepts(req backtest.Request) (bool, string) {
	c, p := req.Config, req.Policy
	one := decimal.NewFromInt(1)
	switch {
	case c.Type != domain.StrategyTechnical || c.Indicators == nil || c.AIParams != nil:
		return false, "not the technical strategy"
	case len(req.Candles) == 0:
		return false, "candles given as fixed-point bars"
	case req.Reference:
		return false, "the reference path was asked for"
	case !replayer(req.Strategy):
		return false, "the strategy cannot be replayed"
	case p.TakeProfit && p.TakeProfitPercent.IsPositive():
		return false, "take-profit orders"
	case p.StopLoss && p.StopLossPercent.IsPositive() && p.TrailingStop:
		return false, "trailing stops"
	case req.VolumeCap.IsPositive():
		return false, "a volume cap (partial fills)"
	case !req.SlippageBps.IsZero():
		return false, "slippage"
	case p.Limits.MaxDrawdown.LessThan(one) || p.Limits.DailyLossLimit.LessThan(one) || p.Limits.MaxDailyTrades > 0:
		return false, "risk limits on the account's history (drawdown, daily loss, daily trades)"
	case req.TakerFee.IsNegative() || req.TakerFee.NumDigits() > 18 || -req.TakerFee.Exponent() > 12 || req.TakerFee.Exponent() > 0:
		return false, "a taker fee of that shape"
	case req.HalfSpread.IsNegative() || req.HalfSpread.IsPositive() && (req.HalfSpread.Exponent() > 0 || -req.HalfSpread.Exponent() > 8 || req.HalfSpread.GreaterThanOrEqual(one)):
		return false, "a half-spread of that shape"
	}
	ps, ok := gridDecimals(req.Product.PriceIncrement)
	if !ok {
		return false, "a price step that is not a power of ten"
	}
	if c, ok := at(req.Capital, 8+ps); !ok || c <= 0 {
		return false, "a capital the fixed point does not hold"
	}
	if !req.Product.SizeIncrement.IsPositive() || -req.Product.SizeIncrement.Exponent() > 8 {
		return false, "a size step of that shape"
	}
	return true, ""
}

func replayer(s strategy.Strategy) bool {
	_, ok := s.(strategy.Replayer)
	return ok
}

// gridDecimals is k for a step of 10^-k, 0 <= k <= 8.
func gridDecimals(step decimal.Decimal) (int, bool) {
	if !step.IsPositive() || step.NumDigits() > 18 {
		return 0, false
	}
	c, e := step.CoefficientInt64(), int(step.Exponent())
	for c%10 == 0 {
		c, e = c/10, e+1
	}
	if c != 1 || -e < 0 || -e > 8 {
		return 0, false
	}
	return -e, true
}
