package analytics

import (
	"math"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func aiDec(id string, day int, decision string, conf float64, executed bool, outcome, pnl string) AIDecision {
	d := AIDecision{Evaluation: domain.Evaluation{ID: id, Time: time.Date(2026, 3, day, 12, 0, 0, 0, time.UTC), Strategy: "ai_strategy",
		Symbol: "BTC-USD", Decision: decision, Confidence: conf, Executed: executed, Model: "model-a"}}
	d.Outcome = Outcome{Outcome: OutcomePending, PnL: decimal.Zero}
	if outcome != "" {
		d.Outcome = Outcome{Outcome: outcome, PnL: dec(pnl)}
	}
	return d
}

// Six answered decisions and one failed one:
//
//	e1 BUY  0.9  profit +30     e4 SELL 0.6  profit +30 (the exit of e1)
//	e2 BUY  0.7  loss   -10     e5 HOLD 0.5
//	e3 BUY  0.8  pending        e6 SELL 0.45 loss -10 (the exit of e2)
//	e7 failed (latency 3 s)
func aiFixture() []AIDecision {
	ds := []AIDecision{
		aiDec("e1", 1, "BUY", 0.9, true, OutcomeProfit, "30"),
		aiDec("e2", 1, "BUY", 0.7, true, OutcomeLoss, "-10"),
		aiDec("e3", 2, "BUY", 0.8, true, "", ""),
		aiDec("e4", 2, "SELL", 0.6, true, OutcomeProfit, "30"),
		aiDec("e5", 3, "HOLD", 0.5, false, "", ""),
		aiDec("e6", 3, "SELL", 0.45, true, OutcomeLoss, "-10"),
		{Evaluation: domain.Evaluation{ID: "e7", Time: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC), Error: "bad answer", Model: "model-b", LatencyMS: 3000}},
	}
	ds[0].LatencyMS, ds[1].LatencyMS = 1000, 500
	return ds
}

func TestSummariseAI(t *testing.T) {
	m := SummariseAI(aiFixture())
	// 6 answered, 5 executed, 4 resolved of which 2 profit: 50%; confidence
	// (0.9+0.7+0.8+0.6+0.5+0.45)/6 = 3.95/6 = 0.6583; BUY P&L 30-10 = 20,
	// latency (1000+500+3000)/3 ms = 1.5 s; the newest model is the failed
	// decision's. The win rate is the strategies' round trips' (AIWinRate),
	// not the decisions'.
	if m.TotalDecisions != 6 || m.ExecutedDecisions != 5 || m.FailedDecisions != 1 || m.ResolvedDecisions != 4 {
		t.Fatalf("counts %+v", m)
	}
	if *m.AccuracyRate != 50 || *m.AverageConfidence != 0.6583 || m.WinRate != nil || *m.AverageResponseTime != 1.5 || *m.ModelVersion != "model-b" {
		t.Fatalf("figures %+v", m)
	}
	eq(t, "totalPnL", *m.TotalPnL, "20")

	empty := SummariseAI(nil)
	if empty.AccuracyRate != nil || empty.AverageConfidence != nil || empty.TotalPnL != nil || empty.WinRate != nil ||
		empty.AverageResponseTime != nil || empty.ModelVersion != nil || empty.TotalDecisions != 0 {
		t.Fatalf("no decisions %+v", empty)
	}
	pending := SummariseAI([]AIDecision{aiDec("p", 1, "BUY", 0.7, true, "", "")})
	if pending.AccuracyRate != nil || pending.TotalPnL != nil || pending.WinRate != nil || *pending.AverageConfidence != 0.7 {
		t.Fatalf("nothing resolved %+v", pending)
	}
}

func TestConfidenceDistribution(t *testing.T) {
	ds := aiFixture()
	ds = append(ds, aiDec("x", 5, "HOLD", 1, false, "", ""), aiDec("y", 5, "HOLD", 0, false, "", ""))
	got := ConfidenceDistribution(ds)
	// 0-0.5: 0.45, 0; 0.5-0.6: 0.5; 0.6-0.7: 0.6; 0.7-0.8: 0.7; 0.8-0.9: 0.8; 0.9-1.0: 0.9, 1.
	want := map[string]int{"0-0.5": 2, "0.5-0.6": 1, "0.6-0.7": 1, "0.7-0.8": 1, "0.8-0.9": 1, "0.9-1.0": 2}
	if len(got) != 6 || got[0].Min != 0 || got[5].Max != 1 {
		t.Fatalf("buckets %+v", got)
	}
	for _, b := range got {
		if b.Count != want[b.Range] {
			t.Errorf("%s: %d, want %d", b.Range, b.Count, want[b.Range])
		}
	}
}

func TestDecisionBreakdown(t *testing.T) {
	got := DecisionBreakdown(aiFixture())
	// BUY 3 (1 of 2 resolved won: 50%), SELL 2 (1 of 2: 50%), HOLD 1 (never resolves).
	if got[0].Type != "BUY" || got[0].Count != 3 || got[0].Executed != 3 || got[0].Resolved != 2 || *got[0].SuccessRate != 50 {
		t.Errorf("BUY %+v", got[0])
	}
	if got[1].Type != "SELL" || got[1].Count != 2 || *got[1].SuccessRate != 50 {
		t.Errorf("SELL %+v", got[1])
	}
	if got[2].Type != "HOLD" || got[2].Count != 1 || got[2].Executed != 0 || got[2].SuccessRate != nil {
		t.Errorf("HOLD %+v", got[2])
	}
}

func TestAIDaily(t *testing.T) {
	got := AIDaily(aiFixture())
	// Mar 1: e1, e2 (BUY P&L 30-10 = 20); Mar 2: e3 pending, e4 SELL (no BUY resolved: nil);
	// Mar 3: e5, e6; the failed e7 is left out.
	if len(got) != 3 || got[0].Date != "2026-03-01" || got[0].Decisions != 2 || got[0].Executed != 2 || got[0].PnL == nil || !got[0].PnL.Equal(dec("20")) {
		t.Fatalf("day 1 %+v", got)
	}
	if got[1].Date != "2026-03-02" || got[1].PnL != nil || got[2].Date != "2026-03-03" || got[2].Executed != 1 {
		t.Fatalf("days %+v", got)
	}
	if len(AIDaily(nil)) != 0 {
		t.Fatal("no decisions, no days")
	}
}

func TestAIWinRate(t *testing.T) {
	fills := []domain.Fill{
		fillAt("BTC-USD", domain.Buy, "1", "100", "0", 1), fillAt("BTC-USD", domain.Sell, "1", "110", "0", 2), // s: +10
		fillAt("BTC-USD", domain.Buy, "1", "100", "0", 3), fillAt("BTC-USD", domain.Sell, "1", "90", "0", 4), // s: -10
		fillAt("ETH-USD", domain.Buy, "1", "100", "0", 5), fillAt("ETH-USD", domain.Sell, "1", "120", "0", 6), // s: +20
	}
	fills[4].Strategy, fills[5].Strategy = "manual", "manual"
	if r := AIWinRate(fills, map[string]bool{"s": true}, time.Time{}); r == nil || *r != 50 {
		t.Fatalf("win rate %v, want 50 (the strategy's two trips, not the manual one)", r)
	}
	if r := AIWinRate(fills, map[string]bool{"s": true}, time.Unix(3, 0)); r == nil || *r != 0 {
		t.Fatalf("since 3: %v, want 0 (one losing trip closed in the period)", r)
	}
	if r := AIWinRate(fills, map[string]bool{"other": true}, time.Time{}); r != nil {
		t.Fatalf("no trips: %v, want nil", r)
	}
}

func TestAIStrategy(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	fill := func(m int, side domain.Side, qty, px string) domain.Fill {
		return domain.Fill{OrderID: "o" + qty + px, Symbol: "BTC-USD", Side: side, Quantity: dec(qty), Price: dec(px), Fee: decimal.Zero, Strategy: "ai_strategy", Time: at(m)}
	}
	fills := []domain.Fill{fill(0, domain.Buy, "2", "100"), fill(1, domain.Sell, "1", "130"), fill(2, domain.Sell, "0.5", "90"),
		fill(3, domain.Sell, "0.5", "120"), fill(4, domain.Buy, "1", "100"), fill(5, domain.Sell, "1", "90"), fill(6, domain.Buy, "0.5", "100")}
	// Round trips: -200+130+45+60 = +35 (won) and -10 (lost): win rate 50%.
	// Realized 30-5+10-10 = 25; 0.5 held at cost 50, worth 60: total 35;
	// drawdown 35 -> 25 = 10; Sharpe of the trips' returns on entry cost,
	// 0.175 and -0.1: mean 0.0375 / s (0.275/sqrt 2).
	row := AIStrategy("ai_strategy", true, fills, Prices{"BTC-USD": dec("120")}, aiFixture())
	sharpe := 0.0375 / (0.275 / math.Sqrt2)
	if row.TotalTrades != 2 || *row.WinRate != 50 || !row.TotalPnL.Equal(dec("35")) || !row.MaxDrawdown.Equal(dec("10")) ||
		row.SharpeRatio == nil || math.Abs(*row.SharpeRatio-sharpe) > 1e-9 || !row.IsActive {
		t.Fatalf("row %+v", row)
	}
	if row.Decisions != 6 || *row.AverageConfidence != 0.6583 {
		t.Fatalf("confidence %+v", row)
	}
	none := AIStrategy("hybrid_strategy", false, fills, nil, aiFixture())
	if none.TotalTrades != 0 || none.WinRate != nil || none.TotalPnL != nil || none.SharpeRatio != nil || none.MaxDrawdown != nil || none.AverageConfidence != nil {
		t.Fatalf("no trades %+v", none)
	}
}
