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

// BenchmarkReplayPerCandle: the backtest's private replay of the technical
// strategy, one close fed and decided per op (real BTC-USD closes).
func BenchmarkReplayPerCandle(b *testing.B) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	closes := make([]float64, s.Len())
	for i := range closes {
		closes[i] = strategy.Float(s.Candle(i).Close)
	}
	tech := strategy.NewTechnical(*strategy.DefaultIndicators()).(strategy.Replayer)
	r, i, votes := tech.Replay(), 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if i == len(closes) {
			r, i = tech.Replay(), 0
		}
		if d, _ := r.Next(closes[i]); d != strategy.Hold {
			votes++
		}
		i++
	}
	if votes == 0 {
		b.Fatal("no decision but HOLD")
	}
}
