package backtest_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/strategy"
	"kestrel/trading"
)

// randomScript gives a BUY, SELL or HOLD with a random confidence on every
// candle, from its own seed (the same decisions on every path).
type randomScript struct{ rng *rand.Rand }

func (s *randomScript) Evaluate(_ context.Context, in strategy.Input) (strategy.Signal, error) {
	dec := []string{strategy.Buy, strategy.Sell, strategy.Hold, strategy.Hold}[s.rng.IntN(4)]
	sig := strategy.Signal{Decision: dec, Confidence: s.rng.Float64()}
	if s.rng.IntN(20) == 0 {
		sig.Stale = "Stale answer: the price moved 1.5% while the model answered (limit 1%)"
	}
	return sig, nil
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// Property: every signal is accounted for, traded or under a reason, over
// random runs of random decisions, random policies, both paths.
func TestSignalsReconcile(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		symbol := []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"}[seed%4]
		cs := shipped(t, symbol, rng.IntN(20000), 600+rng.IntN(1500))
		var strat strategy.Strategy = &randomScript{rng: rand.New(rand.NewPCG(seed, 11))}
		if seed%2 == 0 { // the technical strategy, on the fast path
			strat = strategy.NewTechnical(*strategy.DefaultIndicators())
		}
		req := request(strat, cs, func(p *trading.Policy) {
			p.StopLoss, p.StopLossPercent = rng.IntN(2) == 0, d("0.01")
			p.TakeProfit, p.TakeProfitPercent = rng.IntN(2) == 0, d("0.02")
			p.Limits.MaxDailyTrades = rng.IntN(6)
			p.Limits.DailyLossLimit = d("0.01")
			p.Limits.MaxDrawdown = d("0.05")
		})
		req.Symbol, req.Warmup = symbol, strategy.DefaultIndicators().Warmup()
		for _, p := range candles.Products() {
			if p.Symbol == symbol {
				req.Product = p
			}
		}
		req.Config.MinConfidence = rng.Float64()
		if rng.IntN(3) == 0 {
			req.VolumeCap = d("0.001")
		}
		req.Reference = seed%4 == 2
		res, err := backtest.Run(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Signals
		if s.Total != s.Traded+sumCounts(s.NotExecuted) {
			t.Fatalf("seed %d: %d signals, %d traded + %d not executed %v", seed, s.Total, s.Traded, sumCounts(s.NotExecuted), s.NotExecuted)
		}
		if s.Total == 0 {
			t.Fatalf("seed %d: no signals, the property is not exercised", seed)
		}
	}
}

// Signals below min_confidence and stale answers have reasons of their own.
func TestSignalsBelowConfidenceAndStaleHaveReasons(t *testing.T) {
	cs := flat(10)
	s := stepScript{cs[2].Time: {Decision: strategy.Buy, Confidence: 0.3}, cs[4].Time: {Decision: strategy.Buy, Confidence: 0.9, Stale: "moved"},
		cs[6].Time: {Decision: strategy.Buy, Confidence: 0.9}}
	req := request(s, cs, nil)
	req.Config.MinConfidence = 0.6
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Signals
	if got.Total != 3 || got.Traded != 1 || got.NotExecuted["Confidence below the strategy's minimum (0.60)"] != 1 || got.NotExecuted[backtest.MsgStale] != 1 {
		t.Fatalf("signals %+v", got)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"signals":{"total":3,"traded":1,"not_executed":{`) {
		t.Fatalf("json: %.300s", b)
	}
}

// stepScript gives a fixed signal at given candle times, HOLD elsewhere.
type stepScript map[time.Time]strategy.Signal

func (s stepScript) Evaluate(_ context.Context, in strategy.Input) (strategy.Signal, error) {
	if sig, ok := s[in.Candles[len(in.Candles)-1].Time]; ok {
		return sig, nil
	}
	return strategy.Signal{Decision: strategy.Hold}, nil
}

// A trade closing at exactly zero net P&L is neither a win nor a loss, and
// without a loss the profit factor and win/loss ratio are null, not 0.
func TestBreakevenTradeAndNoLoss(t *testing.T) {
	cs := flat(12)
	s := &script{at: map[time.Time]string{cs[2].Time: strategy.Buy, cs[4].Time: strategy.Sell}}
	req := request(s, cs, nil)
	req.TakerFee = d("0") // flat prices, no fee: exactly zero
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalTrades != 1 || res.LosingTrades != 0 || res.WinningTrades != 0 || res.BreakevenTrades != 1 {
		t.Fatalf("trades %d: %d won, %d lost, %d breakeven", res.TotalTrades, res.WinningTrades, res.LosingTrades, res.BreakevenTrades)
	}
	if res.ProfitFactor != nil || res.WinLossRatio != nil {
		t.Fatalf("no loss: profit factor %v, win/loss %v, want null", res.ProfitFactor, res.WinLossRatio)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"profit_factor":null`) {
		t.Fatalf("json: %.400s", b)
	}
}

// Annualisation reads the candles' usual spacing, not the first gap; a run
// shorter than 30 days reports no CAGR or Calmar, and says why.
func TestAnnualisation(t *testing.T) {
	cs := make([]domain.Candle, 24*40)
	for i := range cs {
		p := d("100")
		if i%7 == 3 {
			p = d("101")
		}
		cs[i] = domain.Candle{Time: t0.Add(time.Duration(i) * time.Hour), Open: p, High: p, Low: p, Close: p, Volume: d("1")}
	}
	buy := &script{at: map[time.Time]string{cs[2].Time: strategy.Buy}}
	base, err := backtest.Run(context.Background(), request(buy, cs, nil))
	if err != nil {
		t.Fatal(err)
	}
	gapped := append([]domain.Candle(nil), cs...)
	for i := 1; i < len(gapped); i++ { // the second candle two hours late: a gap at the start
		gapped[i].Time = gapped[i].Time.Add(time.Hour)
	}
	buy = &script{at: map[time.Time]string{gapped[2].Time: strategy.Buy}}
	gap, err := backtest.Run(context.Background(), request(buy, gapped, nil))
	if err != nil {
		t.Fatal(err)
	}
	if base.SharpeRatio == 0 || gap.SharpeRatio != base.SharpeRatio {
		t.Fatalf("Sharpe %v with a gap at the start, %v without: one gap changed the annualisation", gap.SharpeRatio, base.SharpeRatio)
	}
	if base.CAGR == nil || base.CalmarRatio == nil || base.NotAnnualised != "" {
		t.Fatalf("40 days: CAGR %v Calmar %v (%q)", base.CAGR, base.CalmarRatio, base.NotAnnualised)
	}
	short, err := backtest.Run(context.Background(), request(&script{at: map[time.Time]string{cs[2].Time: strategy.Buy}}, cs[:24*8], nil))
	if err != nil {
		t.Fatal(err)
	}
	if short.CAGR != nil || short.CalmarRatio != nil || !strings.Contains(short.NotAnnualised, "shorter than 30 days") {
		t.Fatalf("8 days: CAGR %v Calmar %v (%q), want null and the reason", short.CAGR, short.CalmarRatio, short.NotAnnualised)
	}
}

// Buy-and-hold pays the taker fee (and slippage) at entry and exit, as a trade does.
func TestBuyAndHoldPaysFees(t *testing.T) {
	cs := flat(10)
	cs[len(cs)-1] = bar(len(cs)-1, "100", "110", "100", "110")
	res, err := backtest.Run(context.Background(), request(&script{}, cs, nil))
	if err != nil {
		t.Fatal(err)
	}
	// 110 x 0.994 / (100 x 1.006) - 1
	want := d("109.34").Div(d("100.6")).Sub(d("1")).InexactFloat64()
	if res.BuyAndHold != want {
		t.Fatalf("buy and hold %v, want %v (fees on both sides)", res.BuyAndHold, want)
	}
}
