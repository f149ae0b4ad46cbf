package strategy_test

import (
	"context"
	"testing"
	"time"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/strategy"
)

// BenchmarkTechnicalPerCandle: one evaluation of the technical strategy on a
// new closed candle, with the window it is shown each time (its streaming
// indicators take only the new candle). Real BTC-USD candles.
func BenchmarkTechnicalPerCandle(b *testing.B) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	all := make([]domain.Candle, 0, 20000)
	for i := 0; i < s.Len() && i < 20000; i++ {
		all = append(all, s.Candle(i))
	}
	ind := *strategy.DefaultIndicators()
	w := ind.Warmup()
	tech := strategy.NewTechnical(ind)
	ctx := context.Background()
	i := w
	b.ReportAllocs()
	for b.Loop() {
		if i >= len(all) {
			i = w
			tech = strategy.NewTechnical(ind)
		}
		if _, err := tech.Evaluate(ctx, strategy.Input{Symbol: "BTC-USD", Candles: all[i-w : i], Now: time.Time{}}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
