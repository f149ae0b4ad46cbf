package backtest

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Halted says that a risk limit stopped a run's trading for good: the
// maximum drawdown limit (the only one that does not reset each day; the
// equity peak it is measured from never falls) refused signals, and the
// equity curve closed at or beyond the limit from At to the end with no
// position opened after At.
// A report with it reads as the account's record until At and a flat line
// after it, which the screen says before anything else.
type Halted struct {
	// Reason names the limit: "Maximum drawdown reached (limit 15%)".
	Reason string `json:"reason"`
	// At is the first point of the equity curve's last stretch at or
	// beyond the limit (marked at its candle's close and, as the curve is,
	// labelled with the candle's open time).
	At time.Time `json:"at"`
	// Refused counts the signals the limit refused.
	Refused int `json:"refused"`
	// UntradedDays are the UTC days after At's day with no fill (the sale
	// of a position still open at the end of the data aside); TotalDays
	// are the run's days.
	UntradedDays int `json:"untraded_days"`
	TotalDays    int `json:"total_days"`
}

// msgDrawdown begins the risk check's refusal for the drawdown limit (its
// text goes on with the drawdown and the limit, risk.Check).
const msgDrawdown = "Maximum drawdown reached"

// halted is res's Halted under the maximum drawdown limit, or nil.
func halted(res *Result, limit decimal.Decimal) *Halted {
	refused := 0
	for why, n := range res.Signals.NotExecuted {
		if strings.HasPrefix(why, msgDrawdown) {
			refused += n
		}
	}
	if refused == 0 || !limit.IsPositive() {
		return nil
	}
	// The halt begins where the curve's last stretch at or beyond the limit
	// begins; a curve that ends above the limit was not halted for good.
	lim, curve := limit.InexactFloat64(), res.EquityCurve
	i := len(curve)
	for i > 0 && curve[i-1].Drawdown >= lim {
		i--
	}
	if i == len(curve) {
		return nil
	}
	at := curve[i].Time
	traded := map[time.Time]bool{}
	for _, f := range res.Fills {
		if f.Side == domain.Buy && f.Time.After(at) {
			return nil // a position opened after it: trading went on
		}
		if f.Reason != "end_of_data" {
			traded[f.Time.Truncate(24*time.Hour)] = true
		}
	}
	h := &Halted{Reason: msgDrawdown + " (limit " + limit.Shift(2).String() + "%)", At: at, Refused: refused}
	first, end := res.StartDate.Truncate(24*time.Hour), res.EndDate
	for d := first; d.Before(end); d = d.Add(24 * time.Hour) {
		h.TotalDays++
		if d.After(at) && !traded[d] {
			h.UntradedDays++
		}
	}
	return h
}
