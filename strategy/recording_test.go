package strategy_test

import (
	"context"
	"strings"
	"testing"

	"kestrel/ai"
	"kestrel/strategy"
)

// A hybrid's evaluation stores the combined decision; what a recorded
// backtest replays for its prompt is the model's own answer.
func TestHybridRecordsTheModelsOwnAnswer(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "SELL", Confidence: 0.9, Reasoning: "model view"}}
	r := aiRig(t, m, nil)
	c, _ := r.eng.Get(strategy.HybridName)
	c.MinConfidence = 0.5
	r.eng.Configure(context.Background(), strategy.HybridName, c)
	r.enable(t, strategy.HybridName, "BTC-USD") // the rules say BUY: no agreement
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Decision != "HOLD" || evs[0].PromptHash != "abc" {
		t.Fatalf("evaluation %+v", evs)
	}
	if m.got.Timeframe != "ONE_HOUR" || m.got.PromptVersion != "" {
		t.Fatalf("the model was not told the timeframe: %q (prompt version %q)", m.got.Timeframe, m.got.PromptVersion)
	}
	got, ok, err := r.store.RecordedDecision(context.Background(), "abc")
	if err != nil || !ok || got.Decision != "SELL" || got.Confidence != 0.9 || got.Reasoning != "model view" || got.Model != "fake-model" {
		t.Fatalf("replayed %+v (%v, %v): want the model's SELL 0.9, not the hybrid's HOLD", got, ok, err)
	}
}

// With the rules at HOLD the hybrid cannot trade: the model is not asked,
// and the evaluation says so.
func TestHybridSkipsTheModelOnRulesHold(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.9, Reasoning: "model view"}}
	r := aiRig(t, m, nil)
	for i := range 74 { // ETH-USD flat but one uptick 14 hours ago: no rule votes now
		px := 3000.0
		if i == 60 {
			px = 3010
		}
		r.mkt.push("ETH-USD", px)
	}
	r.enable(t, strategy.HybridName, "ETH-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Decision != "HOLD" || !strings.HasPrefix(evs[0].Reasoning, strategy.MsgRulesHold) || evs[0].PromptHash != "" || evs[0].Provider != "" {
		t.Fatalf("evaluation %+v", evs)
	}
	if m.got.Symbol != "" {
		t.Fatalf("the model was asked: %+v", m.got)
	}
}
