package backtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// history is up to n candles of the symbol's shipped history of the given
// width from candle i, as fixed-point bars and as decimal candles. Hourly
// candles have each price written with as few decimals as it has, as the
// candle store gives them back (63857.3 next to 63877.97).
func history(t testing.TB, symbol string, width time.Duration, from, n int) ([]candles.Bar, []domain.Candle) {
	s, err := candles.Load(symbol)
	if err != nil {
		t.Fatal(err)
	}
	bars := s.Bars(s.First(), s.End())
	if width != candles.Width {
		bars = candles.Aggregate(bars, width)
	}
	bars = bars[min(from, len(bars)):min(from+n, len(bars))]
	short := func(d decimal.Decimal) decimal.Decimal { return decimal.RequireFromString(d.String()) }
	cs := make([]domain.Candle, len(bars))
	for i, b := range bars {
		c := b.Candle()
		if width != candles.Width {
			c.Open, c.High, c.Low, c.Close, c.Volume = short(c.Open), short(c.High), short(c.Low), short(c.Close), short(c.Volume)
		}
		cs[i] = c
	}
	return bars, cs
}

// The optimised path (the fast path with everything it settles in fixed
// point) and the reference engine (Request.Reference: every candle through
// the decimal engine and Evaluate) give the same fills and trades one by
// one, and then the same report byte for byte, over several strategies'
// parameters, policies, symbols, periods and candle widths, including runs
// that trade throughout (no drawdown or daily limit); and so does the
// optimised path given fixed-point bars (Request.Bars, as the command line
// runs a file).
func TestOptimisedPathTradeByTrade(t *testing.T) {
	def := *strategy.DefaultIndicators()
	loose := def
	loose.RSIOversold, loose.RSIOverbought, loose.SMAShort, loose.SMALong, loose.BollingerStd = 40, 60, 5, 13, 1.5
	quick := def
	quick.RSIPeriod, quick.RSIOversold, quick.RSIOverbought, quick.MACDFast, quick.MACDSlow, quick.MACDSignal = 7, 35, 65, 6, 13, 5
	stop := func(pct string) func(*trading.Policy) {
		return func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, d(pct) }
	}
	cases := []struct {
		name   string
		symbol string
		width  time.Duration
		from   int
		n      int
		ind    strategy.Indicators
		policy func(*trading.Policy)
		tweak  func(*backtest.Request)
	}{
		{"BTC 15m default, trading throughout", "BTC-USD", 15 * time.Minute, 0, 20000, def,
			func(p *trading.Policy) { stop("0.02")(p); unlimited(p) }, nil},
		{"BTC hourly default limits", "BTC-USD", time.Hour, 2000, 8760, def, stop("0.02"), nil},
		{"BTC hourly loose, trading throughout, take-profit", "BTC-USD", time.Hour, 0, 8760, loose,
			func(p *trading.Policy) {
				stop("0.015")(p)
				unlimited(p)
				p.TakeProfit, p.TakeProfitPercent = true, d("0.03")
			}, nil},
		{"ETH hourly quick, slippage", "ETH-USD", time.Hour, 4000, 8000, quick,
			func(p *trading.Policy) { stop("0.02")(p); unlimited(p) }, func(r *backtest.Request) { r.SlippageBps = d("5") }},
		{"SOL 15m loose, odd capital", "SOL-USD", 15 * time.Minute, 30000, 15000, loose,
			func(p *trading.Policy) { unlimited(p) }, func(r *backtest.Request) { r.Capital = d("12345.678") }},
		{"ADA hourly quick, volume cap", "ADA-USD", time.Hour, 1000, 6000, quick,
			func(p *trading.Policy) { stop("0.03")(p); unlimited(p) }, func(r *backtest.Request) { r.VolumeCap = d("0.001") }},
		{"BTC 15m quick, daily trade limit", "BTC-USD", 15 * time.Minute, 40000, 12000, quick,
			func(p *trading.Policy) {
				stop("0.01")(p)
				unlimited(p)
				p.Limits.MaxDailyTrades = 4
			}, nil},
	}
	for _, c := range cases {
		for _, half := range []decimal.Decimal{decimal.Zero, replay.LiveHalfSpread} {
			t.Run(fmt.Sprintf("%s, half-spread %s", c.name, half), func(t *testing.T) {
				bars, cs := history(t, c.symbol, c.width, c.from, c.n)
				product := domain.Product{}
				for _, p := range candles.Products() {
					if p.Symbol == c.symbol {
						product = p
					}
				}
				run := func(reference, fixed bool) backtest.Result {
					req := request(strategy.NewTechnical(c.ind), cs, c.policy)
					if fixed {
						req.Candles, req.Bars = nil, bars
					}
					req.Symbol, req.Product, req.Warmup, req.Reference, req.HalfSpread = product.Symbol, product, c.ind.Warmup(), reference, half
					if c.tweak != nil {
						c.tweak(&req)
					}
					res, err := backtest.Run(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				ref := run(true, false)
				for _, fixed := range []bool{false, true} {
					compare(t, ref, run(false, fixed))
				}
				if ref.TotalTrades < 10 {
					t.Fatalf("only %d trades: the comparison proves little", ref.TotalTrades)
				}
				t.Logf("%d candles, %d trades, %d fills", len(cs), ref.TotalTrades, len(ref.Fills))
			})
		}
	}
}

// compare fails t at the first fill or trade where the optimised run
// differs from the reference, or when the reports differ at all.
func compare(t *testing.T, ref, fast backtest.Result) {
	t.Helper()
	for i := range min(len(ref.Fills), len(fast.Fills)) {
		a, b := ref.Fills[i], fast.Fills[i]
		if a.Side != b.Side || !a.Time.Equal(b.Time) || !a.Price.Equal(b.Price) || !a.Quantity.Equal(b.Quantity) || !a.Fee.Equal(b.Fee) || a.Reason != b.Reason {
			t.Fatalf("fill %d: reference %+v, optimised %+v", i, a, b)
		}
	}
	if len(ref.Fills) != len(fast.Fills) {
		t.Fatalf("fills: reference %d, optimised %d", len(ref.Fills), len(fast.Fills))
	}
	for i := range ref.Trades {
		if a, b := ref.Trades[i], fast.Trades[i]; !a.PnL.Equal(b.PnL) || !a.EntryTime.Equal(b.EntryTime) || !a.ExitTime.Equal(b.ExitTime) || a.ExitReason != b.ExitReason {
			t.Fatalf("trade %d: reference %+v, optimised %+v", i, a, b)
		}
	}
	want, _ := json.Marshal(ref)
	got, _ := json.Marshal(fast)
	if !bytes.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Logf("first difference at byte %d: reference %s, optimised %s", i, want[max(0, i-80):min(len(want), i+80)], got[max(0, i-80):min(len(got), i+80)])
				break
			}
		}
		t.Fatalf("reports differ: final %s/%s sharpe %v/%v dd %v/%v signals %v/%v", ref.FinalEquity, fast.FinalEquity,
			ref.SharpeRatio, fast.SharpeRatio, ref.MaxDrawdown, fast.MaxDrawdown, ref.Signals, fast.Signals)
	}
}
