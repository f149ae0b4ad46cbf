package batch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/research/batch"
	"kestrel/strategy"
	"kestrel/trading"
)

// shipped is a symbol's shipped 15-minute history (the last n candles).
func shipped(t testing.TB, symbol string, n int) []domain.Candle {
	s, err := candles.Load(symbol)
	if err != nil {
		t.Fatal(err)
	}
	from := max(0, s.Len()-n)
	cs := make([]domain.Candle, 0, s.Len()-from)
	for i := from; i < s.Len(); i++ {
		cs = append(cs, s.Candle(i))
	}
	return cs
}

// sweep is a test sweep: the trials a grid over the indicators makes, each
// over the same period (its warm-up read before it, as the service reads
// it), with one policy.
type sweep struct {
	name   string
	grid   []func(*strategy.Indicators)
	policy func(*trading.Policy)
	// cfg changes the configuration (min_confidence, sizing)
	cfg func(*strategy.Config)
}

// requests are the sweep's trials: all trade the candles from start on.
func (s sweep) requests(symbol string, all []domain.Candle, start int) []backtest.Request {
	var product domain.Product
	for _, p := range candles.Products() {
		if p.Symbol == symbol {
			product = p
		}
	}
	var out []backtest.Request
	for _, g := range s.grid {
		cfg := strategy.Default(domain.StrategyTechnical, "sweep")
		in := *cfg.Indicators
		g(&in)
		cfg.Indicators = &in
		if s.cfg != nil {
			s.cfg(&cfg)
		}
		p := trading.DefaultPolicy()
		p.StopLoss, p.TakeProfit, p.TrailingStop = false, false, false
		s.policy(&p)
		w := min(in.Warmup(), start)
		out = append(out, backtest.Request{Strategy: strategy.NewTechnical(in), Config: cfg, Symbol: symbol, Product: product,
			Candles: all[start-w:], Warmup: w, Capital: decimal.NewFromInt(10000), TakerFee: decimal.RequireFromString("0.006"),
			MakerFee: decimal.RequireFromString("0.004"), HalfSpread: replay.LiveHalfSpread, Policy: p})
	}
	return out
}

func grid(rsi []int, oversold, overbought []float64, more ...func(*strategy.Indicators)) []func(*strategy.Indicators) {
	var out []func(*strategy.Indicators)
	if len(more) == 0 {
		more = []func(*strategy.Indicators){func(*strategy.Indicators) {}}
	}
	for _, m := range more {
		for _, r := range rsi {
			for _, lo := range oversold {
				for _, hi := range overbought {
					out = append(out, func(in *strategy.Indicators) {
						m(in)
						in.RSIPeriod, in.RSIOversold, in.RSIOverbought = r, lo, hi
					})
				}
			}
		}
	}
	return out
}

func unlimited(p *trading.Policy) {
	p.Limits.MaxDrawdown, p.Limits.DailyLossLimit, p.Limits.MaxDailyTrades = decimal.NewFromInt(1), decimal.NewFromInt(1), 0
}

func stop(pct string) func(*trading.Policy) {
	return func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, decimal.RequireFromString(pct) }
}

func all(fs ...func(*trading.Policy)) func(*trading.Policy) {
	return func(p *trading.Policy) {
		for _, f := range fs {
			f(p)
		}
	}
}

// The test sweeps: a technical grid over the RSI settings and the other
// indicators, with risk limits on and off, stops and take-profits on and
// off. Every trial must equal the event engine's run of it, fill by fill
// and in its final equity; the trials the batch does not accept must say
// so and run on the event engine.
func testSweeps() []sweep {
	rsi := grid([]int{7, 14, 21}, []float64{25, 35}, []float64{65, 75})
	others := grid([]int{9, 14}, []float64{30}, []float64{70},
		func(in *strategy.Indicators) {},
		func(in *strategy.Indicators) { in.SMAShort, in.SMALong = 20, 50 },
		func(in *strategy.Indicators) { in.MACDFast, in.MACDSlow, in.MACDSignal = 8, 21, 5 },
		func(in *strategy.Indicators) { in.BollingerPeriod, in.BollingerStd = 30, 2.5 },
		func(in *strategy.Indicators) { in.SMAShort, in.BollingerPeriod = 20, 20 })
	return []sweep{
		{name: "rsi/limits off/stop 2%", grid: rsi, policy: all(unlimited, stop("0.02"))},
		{name: "rsi/limits off/no stop", grid: rsi, policy: unlimited},
		{name: "rsi/limits off/stop 0.5%", grid: rsi, policy: all(unlimited, stop("0.005")), cfg: func(c *strategy.Config) { c.MinConfidence = 0.4 }},
		{name: "others/limits off/stop 1%", grid: others, policy: all(unlimited, stop("0.01"))},
		{name: "others/limits off/no stop/larger positions", grid: others, policy: unlimited, cfg: func(c *strategy.Config) { c.MaxPositionSize, c.MinConfidence = 0.5, 0.4 }},
		{name: "rsi/limits on/stop 2%", grid: rsi, policy: stop("0.02")},
		{name: "rsi/limits off/take-profit", grid: rsi, policy: all(unlimited, stop("0.02"), func(p *trading.Policy) {
			p.TakeProfit, p.TakeProfitPercent = true, decimal.RequireFromString("0.03")
		})},
		{name: "rsi/limits off/trailing", grid: rsi[:2], policy: all(unlimited, stop("0.02"), func(p *trading.Policy) { p.TrailingStop = true })},
	}
}

func TestBatchIsTheEngine(t *testing.T) {
	n := 6000
	if testing.Short() {
		n = 1500
	}
	ctx := context.Background()
	for _, sym := range []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"} {
		cs := shipped(t, sym, n+800)
		for _, s := range testSweeps() {
			t.Run(sym+"/"+s.name, func(t *testing.T) {
				reqs := s.requests(sym, cs, len(cs)-n)
				got, err := batch.Run(ctx, reqs)
				if err != nil {
					t.Fatal(err)
				}
				var batched, fills, stops, addOns, ends int
				for i, req := range reqs {
					want, err := backtest.Run(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					ok, why := batch.Accepts(req)
					g := got[i]
					switch {
					case ok && g.Engine != batch.Batched:
						t.Fatalf("trial %d: accepted but run by %s (%s)", i, g.Engine, g.Why)
					case !ok && (g.Engine != batch.Event || g.Why != why):
						t.Fatalf("trial %d: not accepted (%s) but run by %s", i, why, g.Engine)
					}
					if g.Engine == batch.Batched {
						batched++
					}
					fills += len(want.Fills)
					held := decimal.Zero
					for _, f := range want.Fills {
						switch {
						case f.Side == domain.Buy && held.IsPositive():
							addOns++
						case f.Reason == "stop_loss":
							stops++
						case f.Reason == "end_of_data":
							ends++
						}
						if f.Side == domain.Buy {
							held = held.Add(f.Quantity)
						} else {
							held = held.Sub(f.Quantity)
						}
					}
					if err := same(want, g); err != nil {
						t.Fatalf("trial %d (%s): %v", i, g.Engine, err)
					}
				}
				t.Logf("%d trials, %d batched; %d fills: %d stops, %d buys adding to a position, %d at the end", len(reqs), batched, fills, stops, addOns, ends)
			})
		}
	}
}

// The BUYs' decimal way alone (no float screening) gives the same trials.
func TestBatchDecimalBuys(t *testing.T) {
	batch.Screen(false)
	defer batch.Screen(true)
	cs := shipped(t, "BTC-USD", 2800)
	for _, s := range testSweeps()[:5] {
		check(t, s.requests("BTC-USD", cs, 800))
	}
}

// A year of hourly candles (the benchmark's sweep, one trial in ten), and
// other market settings: no half-spread, another fee and capital, another
// sizing.
func TestBatchHourlyAndMarkets(t *testing.T) {
	if testing.Short() {
		t.Skip("a year of hourly candles")
	}
	reqs, _ := yearSweep(t)
	var some []backtest.Request
	for i := 0; i < len(reqs); i += 10 {
		some = append(some, reqs[i])
	}
	check(t, some)
	cs := shipped(t, "ETH-USD", 3800)
	for _, m := range []func(*backtest.Request){
		func(r *backtest.Request) { r.HalfSpread = decimal.Zero },
		func(r *backtest.Request) {
			r.TakerFee, r.Capital = decimal.RequireFromString("0.0025"), decimal.RequireFromString("12345.67")
		},
		func(r *backtest.Request) {
			r.Config.MaxPositionSize, r.Config.RiskMultiplier = 0.9, 1
			r.Policy.Limits.MaxPositionSize = decimal.RequireFromString("0.5")
			r.Policy.Limits.MaxTradeAmount = decimal.RequireFromString("3000")
			r.Policy.Limits.MinTradeAmount = decimal.RequireFromString("50")
		},
		func(r *backtest.Request) { r.Capital = decimal.RequireFromString("25") }, // the minimum trade amount refuses most BUYs
	} {
		reqs := testSweeps()[0].requests("ETH-USD", cs, 800)
		for i := range reqs {
			m(&reqs[i])
		}
		check(t, reqs)
	}
}

// check runs the requests in a batch and alone and compares them.
func check(t *testing.T, reqs []backtest.Request) {
	t.Helper()
	ctx := context.Background()
	got, err := batch.Run(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	batched, fills := 0, 0
	for i, req := range reqs {
		want, err := backtest.Run(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if got[i].Engine == batch.Batched {
			batched++
		}
		fills += len(want.Fills)
		if err := same(want, got[i]); err != nil {
			t.Fatalf("trial %d (%s): %v", i, got[i].Engine, err)
		}
	}
	if batched == 0 {
		t.Fatal("no trial batched")
	}
	t.Logf("%d trials, %d batched, %d fills", len(reqs), batched, fills)
}

// same compares every fill (time, side, price, quantity, fee, reason) and
// the final equity, as the report writes them.
func same(want backtest.Result, trial batch.Trial) error {
	got := struct{ Fills []backtest.Fill }{trial.Fills()}
	if want.FinalEquity.String() != trial.FinalEquity.String() {
		return fmt.Errorf("final equity %s, want %s", trial.FinalEquity, want.FinalEquity)
	}
	for i := range max(len(want.Fills), len(got.Fills)) {
		if i >= len(want.Fills) || i >= len(got.Fills) {
			return fmt.Errorf("%d fills, want %d (first difference at %d)", len(got.Fills), len(want.Fills), i)
		}
		w, g := want.Fills[i], got.Fills[i]
		if !w.Time.Equal(g.Time) || w.Side != g.Side || w.Price.String() != g.Price.String() || w.Quantity.String() != g.Quantity.String() ||
			w.Fee.String() != g.Fee.String() || w.Reason != g.Reason {
			return fmt.Errorf("fill %d: %+v, want %+v", i, g, w)
		}
	}
	return nil
}

// Acceptance is decided from the configuration: each shape the batch does
// not model sends its trial to the event engine, which then runs it.
func TestAcceptsByConfiguration(t *testing.T) {
	cs := shipped(t, "BTC-USD", 1200)
	base := testSweeps()[0].requests("BTC-USD", cs, 800)[0]
	if ok, why := batch.Accepts(base); !ok {
		t.Fatalf("the base trial is not accepted: %s", why)
	}
	for name, m := range map[string]func(*backtest.Request){
		"slippage":       func(r *backtest.Request) { r.SlippageBps = decimal.NewFromInt(5) },
		"volume cap":     func(r *backtest.Request) { r.VolumeCap = decimal.RequireFromString("0.1") },
		"capital":        func(r *backtest.Request) { r.Capital = decimal.New(1, 12) },
		"drawdown limit": func(r *backtest.Request) { r.Policy.Limits.MaxDrawdown = decimal.RequireFromString("0.15") },
		"daily trades":   func(r *backtest.Request) { r.Policy.Limits.MaxDailyTrades = 20 },
		"reference":      func(r *backtest.Request) { r.Reference = true },
		"hybrid":         func(r *backtest.Request) { r.Config.Type = domain.StrategyHybrid },
		"trailing stop":  func(r *backtest.Request) { r.Policy.TrailingStop = true },
		"take-profit": func(r *backtest.Request) {
			r.Policy.TakeProfit, r.Policy.TakeProfitPercent = true, decimal.RequireFromString("0.05")
		},
		"half-spread":      func(r *backtest.Request) { r.HalfSpread = decimal.RequireFromString("0.000000001") },
		"price step shape": func(r *backtest.Request) { r.Product.PriceIncrement = decimal.RequireFromString("0.05") },
	} {
		r := base
		m(&r)
		ok, why := batch.Accepts(r)
		if ok || why == "" {
			t.Errorf("%s: accepted", name)
		}
		if name == "hybrid" || name == "price step shape" {
			continue // the event engine is not asked to run these made-up requests
		}
		got, err := batch.Run(context.Background(), []backtest.Request{r})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Engine != batch.Event || got[0].Why != why || got[0].Result == nil {
			t.Errorf("%s: run by %s (%s)", name, got[0].Engine, got[0].Why)
		}
	}
}
