package views

import (
	"context"

	"kestrel/analytics"
)

// historyCloses are the daily closes of the candle store by real dates,
// the history the stress tests and scenarios draw their moves and
// frequencies from whatever market is configured: every whole UTC day the
// data covers (the last, partial day is left out).
func (vw *Views) historyCloses(ctx context.Context) (map[string][]analytics.Close, error) {
	out := map[string][]analytics.Close{}
	if vw.History == nil {
		return out, nil
	}
	days, err := vw.History.Daily(ctx, vw.Prices.Symbols())
	if err != nil {
		return nil, err
	}
	for sym, cs := range days {
		for _, c := range cs {
			out[sym] = append(out[sym], analytics.Close{Date: c.Time, Price: c.Close})
		}
	}
	return out, nil
}
