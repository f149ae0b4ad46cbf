package backtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// shipped is n of the symbol's shipped 15-minute candles from i.
func shipped(t testing.TB, symbol string, from, n int) []domain.Candle {
	s, err := candles.Load(symbol)
	if err != nil {
		t.Fatal(err)
	}
	n = min(n, s.Len()-from)
	cs := make([]domain.Candle, n)
	for i := range cs {
		cs[i] = s.Candle(from + i)
	}
	return cs
}

// The fast path (fixed-point marks, the engine skipped between events,
// decisions without explanations) gives the general path's result byte for
// byte, on every symbol, with stops and take-profits, slippage, a volume
// cap, risk limits that refuse, and parameters that trade often.
func TestFastPathIsTheGeneralPath(t *testing.T) {
	loose := *strategy.DefaultIndicators()
	loose.RSIOversold, loose.RSIOverbought, loose.SMAShort, loose.SMALong, loose.BollingerStd = 40, 60, 5, 13, 1.5
	cases := []struct {
		symbol string
		ind    strategy.Indicators
		policy func(*trading.Policy)
		tweak  func(*backtest.Request)
	}{
		{"BTC-USD", *strategy.DefaultIndicators(), func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, d("0.02") }, nil},
		{"ETH-USD", loose, func(p *trading.Policy) {
			p.StopLoss, p.StopLossPercent, p.TakeProfit, p.TakeProfitPercent = true, d("0.01"), true, d("0.015")
		}, nil},
		{"SOL-USD", loose, nil, func(r *backtest.Request) { r.SlippageBps = d("7.5") }},
		{"ADA-USD", loose, func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, d("0.03") }, func(r *backtest.Request) {
			r.VolumeCap, r.Capital = d("0.0001"), d("25000.55")
		}},
		// From the middle on the prices have another exponent: the run leaves
		// the fast path there and finishes in decimal.
		{"ETH-USD", loose, func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, d("0.01") }, func(r *backtest.Request) {
			cs := append([]domain.Candle(nil), r.Candles...)
			for i := len(cs) / 2; i < len(cs); i++ {
				c := &cs[i]
				c.Open, c.High, c.Low, c.Close = c.Open.Round(2), c.High.Round(2), c.Low.Round(2), c.Close.Round(2)
			}
			r.Candles = cs
		}},
		{"BTC-USD", loose, func(p *trading.Policy) {
			p.Limits.MaxDailyTrades, p.Limits.DailyLossLimit, p.Limits.MaxDrawdown = 3, d("0.004"), d("0.5")
			p.TakeProfit, p.TakeProfitPercent = true, d("0.005")
		}, func(r *backtest.Request) { r.Config.MinConfidence = 0.55 }},
	}
	for k, c := range append(cases, cases...) { // the second time with the live half-spread
		i, half := k%len(cases), d("0")
		if k >= len(cases) {
			half = replay.LiveHalfSpread
		}
		t.Run(fmt.Sprintf("%d-%s-spread%s", i, c.symbol, half), func(t *testing.T) {
			cs := shipped(t, c.symbol, 1000*i, 12000)
			product := domain.Product{}
			for _, p := range candles.Products() {
				if p.Symbol == c.symbol {
					product = p
				}
			}
			run := func(reference bool) (backtest.Result, []byte) {
				req := request(strategy.NewTechnical(c.ind), cs, c.policy)
				req.Symbol, req.Product, req.Warmup, req.Reference, req.HalfSpread = c.symbol, product, c.ind.Warmup(), reference, half
				if c.tweak != nil {
					c.tweak(&req)
				}
				res, err := backtest.Run(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				return res, b
			}
			ref, want := run(true)
			fast, got := run(false)
			if !bytes.Equal(got, want) {
				for j := range min(len(ref.EquityCurve), len(fast.EquityCurve)) {
					if a, b := ref.EquityCurve[j], fast.EquityCurve[j]; a.Equity != b.Equity || a.Drawdown != b.Drawdown {
						t.Fatalf("curve point %d: general %v %v, fast %v %v", j, a.Equity, a.Drawdown, b.Equity, b.Drawdown)
					}
				}
				t.Fatalf("results differ:\nfills %d/%d trades %d/%d final %s/%s sharpe %v/%v dd %v/%v", len(ref.Fills), len(fast.Fills), ref.TotalTrades, fast.TotalTrades,
					ref.FinalEquity, fast.FinalEquity, ref.SharpeRatio, fast.SharpeRatio, ref.MaxDrawdown, fast.MaxDrawdown)
			}
			if ref.TotalTrades < 5 {
				t.Fatalf("only %d trades: the comparison proves little", ref.TotalTrades)
			}
			t.Logf("%s: %d trades, %d fills, not executed %v", c.symbol, ref.TotalTrades, len(ref.Fills), ref.Signals.NotExecuted)
		})
	}
}

// Where a private replay would not see what Evaluate sees (no warm-up: each
// window starts afresh; a repeated candle time: Evaluate skips the candle),
// the run takes the general path and the results stay equal.
func TestFastPathDeclinesWhatReplayCannotSee(t *testing.T) {
	ind := *strategy.DefaultIndicators()
	ind.RSIOversold, ind.RSIOverbought = 40, 60
	cs := shipped(t, "BTC-USD", 0, 6000)
	dup := append([]domain.Candle(nil), cs...)
	dup[3000].Time = dup[2999].Time
	for _, c := range []struct {
		name   string
		cs     []domain.Candle
		warmup int
	}{{"no warm-up", cs, 0}, {"repeated time", dup, ind.Warmup()}} {
		t.Run(c.name, func(t *testing.T) {
			var out [2][]byte
			for i, reference := range []bool{true, false} {
				req := request(strategy.NewTechnical(ind), c.cs, nil)
				req.Warmup, req.Reference = c.warmup, reference
				res, err := backtest.Run(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if out[i], err = json.Marshal(res); err != nil {
					t.Fatal(err)
				}
				if c.warmup > 0 && res.TotalTrades < 5 {
					t.Fatalf("only %d trades: the comparison proves little", res.TotalTrades)
				}
			}
			if !bytes.Equal(out[0], out[1]) {
				t.Fatal("the fast and general paths differ")
			}
		})
	}
}
