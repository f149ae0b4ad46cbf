package marketdata_test

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/marketdata"
)

// A backtest's read of one year of BTC-USD from the shipped candles: at
// FIFTEEN_MINUTE one stored width is read; at ONE_HOUR the widths a backfill
// may store (ONE_HOUR, THIRTY_MINUTE) are looked up first, empty here, then
// the 15-minute candles are aggregated. The difference is the cost of the
// layered read when nothing was backfilled.
func BenchmarkCandlesYear(b *testing.B) {
	st, _ := imported(b)
	h := marketdata.New(st, 1)
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, g := range []domain.Granularity{domain.FifteenMinute, domain.OneHour} {
		b.Run(string(g), func(b *testing.B) {
			for b.Loop() {
				win, err := h.Candles(context.Background(), "BTC-USD", g, from, from.AddDate(1, 0, 0))
				if err != nil || len(win.Candles) == 0 {
					b.Fatal(len(win.Candles), err)
				}
			}
		})
	}
}
