package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// PaperCall is one model decision taken at its candle's close.
type PaperCall struct {
	Symbol   string
	Time     time.Time // the decision candle's open time
	Price    decimal.Decimal
	Decision string // BUY, SELL or HOLD ("" for a failed decision: ignored)
}

// PaperScore is how a model's calls would have done traded on paper (see
// PaperTrade). A figure with nothing to compute it from is nil.
type PaperScore struct {
	RoundTrips int `json:"round_trips"`
	Wins       int `json:"wins"`
	// HitRate is closed round trips with a net profit / closed round trips,
	// percent (WinRate: to one place, as every win rate).
	HitRate *float64 `json:"hit_rate"`
	// RealisedReturn is the closed round trips' compounded net return, a
	// fraction of the starting stake, averaged over the symbols (an equal
	// stake in each); open positions are not counted.
	RealisedReturn decimal.Decimal `json:"realised_return"`
	// OpenPositions counts symbols left long at the last decision.
	OpenPositions int `json:"open_positions"`
}

// PaperTrade simulates the calls of one model: for each symbol an equal
// stake, all in on a BUY while flat (at the decision candle's close, the
// fee rate charged on the notional), all out on a SELL while long; BUY
// while long, SELL while flat (a spot account never goes short), HOLD and
// failed decisions change nothing. symbols is the comparison's set, the
// same for every model, so a model that never traded a symbol keeps that
// stake flat.
func PaperTrade(calls []PaperCall, symbols []string, fee decimal.Decimal) PaperScore {
	calls = append([]PaperCall(nil), calls...)
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Time.Before(calls[j].Time) })
	one := decimal.NewFromInt(1)
	growth := map[string]decimal.Decimal{}
	entry := map[string]decimal.Decimal{}
	var s PaperScore
	for _, c := range calls {
		g, ok := growth[c.Symbol]
		if !ok {
			g = one
		}
		in, long := entry[c.Symbol]
		switch {
		case c.Decision == "BUY" && !long && c.Price.IsPositive():
			entry[c.Symbol] = c.Price
		case c.Decision == "SELL" && long:
			// (exit / entry) × (1 − fee) / (1 + fee): the stake buys
			// stake / (1 + fee) of notional, the exit keeps (1 − fee).
			m := c.Price.Mul(one.Sub(fee)).Div(in.Mul(one.Add(fee)))
			g = g.Mul(m)
			s.RoundTrips++
			if m.GreaterThan(one) {
				s.Wins++
			}
			delete(entry, c.Symbol)
		}
		growth[c.Symbol] = g
	}
	s.OpenPositions = len(entry)
	if len(symbols) > 0 {
		sum := decimal.Zero
		for _, sym := range symbols {
			g, ok := growth[sym]
			if !ok {
				g = one
			}
			sum = sum.Add(g)
		}
		s.RealisedReturn = sum.Div(decimal.NewFromInt(int64(len(symbols)))).Sub(one)
	}
	if s.RoundTrips > 0 {
		s.HitRate = ptr(WinRate(s.Wins, s.RoundTrips)) // the win rate's one definition and rounding
	}
	return s
}
