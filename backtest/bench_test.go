package backtest_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// BenchmarkTechnicalBacktest: the technical strategy over the shipped
// BTC-USD 15-minute history (with protective orders), reported in candles/s:
// the fast path, and the general path it is checked against. With the
// default risk limits the run is locked out by the drawdown limit after
// about a month (most candles are a flat account); the "trading" runs turn
// the drawdown and daily limits off, so the strategy trades throughout, and
// quote the live half-spread as the service does.
func BenchmarkTechnicalBacktest(b *testing.B) {
	b.Run("fast", func(b *testing.B) { benchTechnical(b, false, false) })
	b.Run("general", func(b *testing.B) { benchTechnical(b, true, false) })
	b.Run("trading/fast", func(b *testing.B) { benchTechnical(b, false, true) })
	b.Run("trading/general", func(b *testing.B) { benchTechnical(b, true, true) })
}

func benchTechnical(b *testing.B, reference, keepTrading bool) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	cs := make([]domain.Candle, s.Len())
	for i := range cs {
		cs[i] = s.Candle(i)
	}
	fills := 0
	b.ResetTimer()
	for b.Loop() {
		req := request(strategy.NewTechnical(*strategy.DefaultIndicators()), cs, func(p *trading.Policy) {
			p.StopLoss, p.StopLossPercent = true, d("0.02")
			if keepTrading {
				unlimited(p)
			}
		})
		req.Warmup, req.Reference = strategy.DefaultIndicators().Warmup(), reference
		if keepTrading {
			req.HalfSpread = replay.LiveHalfSpread // as the service and the command line quote
		}
		res, err := backtest.Run(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		fills = len(res.Fills)
	}
	b.ReportMetric(float64(len(cs))*float64(b.N)/b.Elapsed().Seconds(), "candles/s")
	b.ReportMetric(float64(fills), "fills")
}

// unlimited turns off the limits that stop a losing run from trading: the
// maximum drawdown and daily loss limits at 100% (a zero limit refuses
// every BUY) and no daily trade count.
func unlimited(p *trading.Policy) {
	p.Limits.MaxDrawdown, p.Limits.DailyLossLimit, p.Limits.MaxDailyTrades = decimal.NewFromInt(1), decimal.NewFromInt(1), 0
}
