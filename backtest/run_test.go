package backtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/strategy"
	"kestrel/trading"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var t0 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

// bar is an hourly candle i hours after t0.
func bar(i int, o, h, l, c string) domain.Candle {
	return domain.Candle{Time: t0.Add(time.Duration(i) * time.Hour), Open: d(o), High: d(h), Low: d(l), Close: d(c), Volume: d("1")}
}

// script decides by the open time of the candle just closed; it records
// the latest candle each evaluation was shown.
type script struct {
	at   map[time.Time]string
	seen []time.Time
}

func (s *script) Evaluate(_ context.Context, in strategy.Input) (strategy.Signal, error) {
	last := in.Candles[len(in.Candles)-1].Time
	s.seen = append(s.seen, last)
	if dec, ok := s.at[last]; ok {
		return strategy.Signal{Decision: dec, Confidence: 1, Reasoning: "script"}, nil
	}
	return strategy.Signal{Decision: strategy.Hold, Confidence: 0.5}, nil
}

func request(s strategy.Strategy, cs []domain.Candle, policy func(*trading.Policy)) backtest.Request {
	p := trading.DefaultPolicy()
	p.StopLoss, p.TakeProfit = false, false
	if policy != nil {
		policy(&p)
	}
	cfg := strategy.Default(domain.StrategyTechnical, "test")
	return backtest.Request{Strategy: s, Config: cfg, Symbol: "BTC-USD", Product: candles.Products()[0], Candles: cs, Warmup: 1,
		Capital: d("10000"), TakerFee: d("0.006"), MakerFee: d("0.004"), SlippageBps: decimal.Zero, Policy: p}
}

func flat(n int) []domain.Candle {
	cs := make([]domain.Candle, n)
	for i := range cs {
		cs[i] = bar(i, "100", "100", "100", "100")
	}
	return cs
}

// The package doc's worked example, as a ledger.
func TestStopLossLedger(t *testing.T) {
	cs := flat(10)
	cs[7] = bar(7, "100", "100.5", "97.5", "99")
	s := &script{at: map[time.Time]string{cs[5].Time: strategy.Buy}}
	res, err := backtest.Run(context.Background(), request(s, cs, func(p *trading.Policy) { p.StopLoss, p.StopLossPercent = true, d("0.02") }))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 {
		t.Fatalf("fills %+v", res.Fills)
	}
	buy, stop := res.Fills[0], res.Fills[1]
	if !buy.Time.Equal(cs[6].Time) || !buy.Price.Equal(d("100")) || !buy.Quantity.Equal(d("9.95")) || !buy.Fee.Equal(d("5.97")) {
		t.Fatalf("buy %+v: want 9.95 at the open of candle 6 (100.00), fee 5.97", buy)
	}
	if stop.Reason != "stop_loss" || !stop.Price.Equal(d("98")) || !stop.Fee.Equal(d("5.8506")) {
		t.Fatalf("stop %+v: want the stop price 98.00, fee 5.8506", stop)
	}
	if len(res.Trades) != 1 || !res.Trades[0].PnL.Equal(d("-31.7206")) || res.LosingTrades != 1 {
		t.Fatalf("trades %+v", res.Trades)
	}
	if !res.FinalEquity.Equal(d("9968.2794")) || !res.FeesPaid.Equal(d("11.8206")) {
		t.Fatalf("final equity %s, fees %s", res.FinalEquity, res.FeesPaid)
	}
}

// When a stop and a take-profit could both trigger inside one candle, the
// stop is taken (pessimistic); a take-profit alone fills at its limit.
func TestStopBeforeTakeProfitInOneCandle(t *testing.T) {
	cs := flat(10)
	cs[7] = bar(7, "100", "110", "90", "100") // both the 98 stop and the 104 take-profit are inside
	s := &script{at: map[time.Time]string{cs[5].Time: strategy.Buy}}
	both := func(p *trading.Policy) {
		p.StopLoss, p.StopLossPercent, p.TakeProfit, p.TakeProfitPercent = true, d("0.02"), true, d("0.04")
	}
	res, err := backtest.Run(context.Background(), request(s, cs, both))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 || res.Fills[1].Reason != "stop_loss" || !res.Fills[1].Price.Equal(d("98")) {
		t.Fatalf("fills %+v, want the stop first", res.Fills)
	}
	cs[7] = bar(7, "100", "110", "99", "105") // only the take-profit is inside
	s = &script{at: map[time.Time]string{cs[5].Time: strategy.Buy}}
	res, _ = backtest.Run(context.Background(), request(s, cs, both))
	if len(res.Fills) != 2 || res.Fills[1].Reason != "take_profit" || !res.Fills[1].Price.Equal(d("104")) || res.WinningTrades != 1 {
		t.Fatalf("fills %+v, want the take-profit at 104", res.Fills)
	}
}

// No look-ahead: each evaluation sees candles up to the one just closed,
// and its order fills at the next candle's open.
func TestNoLookAhead(t *testing.T) {
	cs := make([]domain.Candle, 20)
	for i := range cs {
		p := decimal.NewFromInt(int64(100 + i*i)).String()
		cs[i] = bar(i, p, p, p, p)
	}
	// The future rises every candle: a strategy that could see it would buy at once.
	s := &script{at: map[time.Time]string{cs[10].Time: strategy.Buy, cs[15].Time: strategy.Sell}}
	res, err := backtest.Run(context.Background(), request(s, cs, nil))
	if err != nil {
		t.Fatal(err)
	}
	for i, seen := range s.seen {
		if want := cs[1+i].Time; !seen.Equal(want) {
			t.Fatalf("evaluation %d saw up to %s, want %s", i, seen, want)
		}
	}
	if len(res.Fills) != 2 || !res.Fills[0].Time.Equal(cs[11].Time) || !res.Fills[0].Price.Equal(cs[11].Open) ||
		!res.Fills[1].Time.Equal(cs[16].Time) || !res.Fills[1].Price.Equal(cs[16].Open) {
		t.Fatalf("fills %+v: want the opens of candles 11 and 16", res.Fills)
	}
}

// Equity at every close is cash plus the position at the close, rebuilt
// from the fills alone.
func TestEquityIsCashPlusPosition(t *testing.T) {
	s, err := candles.Load("ETH-USD")
	if err != nil {
		t.Fatal(err)
	}
	cs := make([]domain.Candle, 3000)
	for i := range cs {
		cs[i] = s.Candle(i)
	}
	tech := strategy.NewTechnical(*strategy.DefaultIndicators())
	req := request(tech, cs, func(p *trading.Policy) {
		p.StopLoss, p.StopLossPercent, p.TakeProfit, p.TakeProfitPercent = true, d("0.02"), true, d("0.04")
	})
	req.Warmup, req.Product = strategy.DefaultIndicators().Warmup(), candles.Products()[1]
	req.Symbol, req.Config.MinConfidence = "ETH-USD", 0.6
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalTrades == 0 {
		t.Fatal("no trades: the property is not exercised")
	}
	cash, qty, f := req.Capital, decimal.Zero, 0
	for i, p := range res.EquityCurve[:len(res.EquityCurve)-1] {
		for f < len(res.Fills) && !res.Fills[f].Time.After(p.Time) {
			x := res.Fills[f]
			n := x.Quantity.Mul(x.Price)
			if x.Side == domain.Buy {
				cash, qty = cash.Sub(n).Sub(x.Fee), qty.Add(x.Quantity)
			} else {
				cash, qty = cash.Add(n).Sub(x.Fee), qty.Sub(x.Quantity)
			}
			f++
		}
		close := cs[req.Warmup+i].Close
		if want := cash.Add(qty.Mul(close)).Round(2); !p.Equity.Decimal().Equal(want) {
			t.Fatalf("%s: equity %s, cash %s + %s x %s = %s", p.Time, p.Equity, cash, qty, close, want)
		}
	}
}

// An order larger than its share of a candle's volume fills in parts at
// the following opens.
func TestVolumeCapFillsInParts(t *testing.T) {
	cs := flat(12)
	for i := range cs {
		cs[i].Volume = d("4") // at a 50% cap, 2 units a candle
	}
	s := &script{at: map[time.Time]string{cs[2].Time: strategy.Buy}}
	req := request(s, cs, nil)
	req.VolumeCap = d("0.5")
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Fills {
		if f.Side == domain.Buy {
			got = append(got, f.Time.Format("15")+":"+f.Quantity.String())
		}
	}
	// 9.95 units wanted: 2 at each of the opens of candles 3 to 6, then 1.95.
	want := []string{"03:2", "04:2", "05:2", "06:2", "07:1.95"}
	if len(got) != len(want) {
		t.Fatalf("buys %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("buys %v, want %v", got, want)
		}
	}
}
