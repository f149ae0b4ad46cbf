package httpapi

import (
	"sync"
	"time"

	"kestrel/analytics"
	"kestrel/candles"
)

var shipped struct {
	once   sync.Once
	closes map[string][]analytics.Close
}

// shippedCloses are the daily closes of the candles shipped with the
// product, the history the stress tests and scenarios draw their moves and
// frequencies from whatever market is configured: every UTC day the data
// covers to its end (the last, partial day is left out). Read once.
func shippedCloses() map[string][]analytics.Close {
	shipped.once.Do(func() {
		shipped.closes = map[string][]analytics.Close{}
		for _, sym := range candles.Symbols() {
			s, err := candles.Load(sym)
			if err != nil || s.Len() == 0 {
				continue
			}
			days := candles.Aggregate(s.Bars(s.First(), s.End()), 24*time.Hour)
			if !s.End().Equal(s.End().Truncate(24*time.Hour)) && len(days) > 0 {
				days = days[:len(days)-1]
			}
			for _, d := range days {
				c := d.Candle()
				shipped.closes[sym] = append(shipped.closes[sym], analytics.Close{Date: c.Time, Price: c.Close})
			}
		}
	})
	return shipped.closes
}
