package backtest

import (
	"fmt"
	"maps"

	"kestrel/strategy"
)

// Signals accounts for every BUY or SELL the strategy gave: Total =
// Traded + the sum of NotExecuted, always.
type Signals struct {
	Total int `json:"total"`
	// Traded became an order (with a volume cap, one that may fill over
	// the following candles).
	Traded int `json:"traded"`
	// NotExecuted counts the others by reason: below the strategy's
	// min_confidence, a stale AI answer, or refused (sizing, the risk
	// check, nothing to sell, the exchange).
	NotExecuted map[string]int `json:"not_executed"`
}

// MsgStale is the reason counted for a stale AI answer (the strategy's own
// message names the move, which would split the count).
const MsgStale = "Stale AI answer: the price moved beyond the limit while the model answered"

// msgBelow is the reason counted for a signal below min_confidence.
func msgBelow(min float64) string {
	return fmt.Sprintf("Confidence below the strategy's minimum (%.2f)", min)
}

// admit counts a BUY or SELL and reports whether it may be acted on at the
// next open; one that may not is counted under its reason.
func (r *run) admit(sig strategy.Signal) bool {
	r.signals++
	switch {
	case sig.Stale != "":
		r.refused[MsgStale]++
	case sig.Confidence < r.req.Config.MinConfidence:
		r.refused[r.below]++
	default:
		return true
	}
	return false
}

// signalCount is the report's account of the signals.
func (r *run) signalCount() Signals {
	return Signals{Total: r.signals, Traded: r.traded, NotExecuted: maps.Clone(r.refusals())}
}
