package backtest_test

import (
	"context"
	"testing"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/strategy"
	"kestrel/trading"
)

// BenchmarkTechnicalBacktest: the technical strategy over the shipped
// BTC-USD 15-minute history (with protective orders), reported in candles/s:
// the fast path, and the general path it is checked against.
func BenchmarkTechnicalBacktest(b *testing.B) {
	b.Run("fast", func(b *testing.B) { benchTechnical(b, false) })
	b.Run("general", func(b *testing.B) { benchTechnical(b, true) })
}

func benchTechnical(b *testing.B, reference bool) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	cs := make([]domain.Candle, s.Len())
	for i := range cs {
		cs[i] = s.Candle(i)
	}
	b.ResetTimer()
	for b.Loop() {
		req := request(strategy.NewTechnical(*strategy.DefaultIndicators()), cs, func(p *trading.Policy) {
			p.StopLoss, p.StopLossPercent = true, d("0.02")
		})
		req.Warmup, req.Reference = strategy.DefaultIndicators().Warmup(), reference
		if _, err := backtest.Run(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(cs))*float64(b.N)/b.Elapsed().Seconds(), "candles/s")
}
