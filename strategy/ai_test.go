package strategy_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/domain"
	"kestrel/strategy"
)

// model answers with a fixed decision (or error) and records the request.
type model struct {
	d   ai.Decision
	err error
	got ai.Request
}

func (m *model) Name() string             { return "fake" }
func (m *model) ModelLabel(string) string { return "fake-model" }
func (m *model) Decide(_ context.Context, r ai.Request) (ai.Decision, error) {
	m.got = r
	d := m.d
	d.Provider, d.Model, d.Prompt, d.PromptHash = "fake", "fake-model", "prompt for "+r.Symbol, "abc"
	return d, m.err
}

func aiRig(t *testing.T, m *model, price func(string) (decimal.Decimal, error)) *rig {
	return newRig(t, strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return m, nil }, Price: price,
		Limits: func() string { return "max position 10%" }}))
}

func TestAIStrategyTradesAndRecordsProvenance(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.8, Reasoning: "oversold"}}
	r := aiRig(t, m, nil)
	r.enable(t, strategy.AIName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || !evs[0].Executed || evs[0].Provider != "fake" || evs[0].Model != "fake-model" || evs[0].PromptHash != "abc" {
		t.Fatalf("evaluation %+v", evs)
	}
	if len(m.got.Candles) != 50 || !has(m.got.Indicators, "rsi") || m.got.Limits == "" || m.got.Model != "gpt-4.1-nano" {
		t.Fatalf("the model was asked %+v", m.got)
	}
}

func TestAIFailureIsRecordedNeverTraded(t *testing.T) {
	m := &model{err: &ai.AnswerError{Reason: "Confidence 1.7 is outside 0-1"}}
	r := aiRig(t, m, nil)
	r.enable(t, strategy.AIName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Executed || !strings.Contains(evs[0].Error, "Confidence 1.7") || evs[0].OrderID != "" {
		t.Fatalf("evaluation %+v", evs)
	}
}

func TestStaleAnswerIsNotExecuted(t *testing.T) {
	calls := 0
	price := func(string) (decimal.Decimal, error) {
		calls++
		if calls == 1 {
			return decimal.NewFromInt(45000), nil // when the prompt is built
		}
		return decimal.NewFromInt(46000), nil // when the answer arrives: +2.2%
	}
	m := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.9, Reasoning: "r"}}
	r := aiRig(t, m, price)
	r.enable(t, strategy.AIName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Executed || !strings.HasPrefix(evs[0].Reason, "Stale answer") {
		t.Fatalf("evaluation %+v", evs)
	}
}

func TestHybridActsOnlyWhenBothAgree(t *testing.T) {
	for _, tc := range []struct {
		ai   string
		conf float64
		want string
		cf   float64
	}{
		{"BUY", 0.7, "BUY", 0.6}, // technical says BUY at 0.6 (RSI alone): the lower confidence
		{"SELL", 0.9, "HOLD", 0.5},
	} {
		m := &model{d: ai.Decision{Decision: tc.ai, Confidence: tc.conf, Reasoning: "model view"}}
		r := aiRig(t, m, nil)
		c, _ := r.eng.Get(strategy.HybridName)
		c.MinConfidence = 0.5
		r.eng.Configure(context.Background(), strategy.HybridName, c)
		r.enable(t, strategy.HybridName, "BTC-USD")
		evs := r.eng.Step(context.Background())
		if len(evs) != 1 || evs[0].Decision != tc.want || evs[0].Confidence != tc.cf {
			t.Fatalf("AI %s: %+v", tc.ai, evs)
		}
	}
}

func TestAnalyzeRecordsWithoutTrading(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.95, Reasoning: "r"}}
	r := aiRig(t, m, nil)
	ev, err := r.eng.Analyze(context.Background(), strategy.AIName, "BTC-USD")
	if err != nil || ev.Executed || ev.Reason != "Test analysis: not executed" {
		t.Fatalf("analysis %+v %v", ev, err)
	}
	m.err = errors.New("401 Unauthorized: invalid token")
	ev, err = r.eng.Analyze(context.Background(), strategy.AIName, "BTC-USD")
	if err == nil || ev.Error == "" {
		t.Fatalf("failed analysis %+v %v", ev, err)
	}
	stored, _ := r.store.Evaluations(context.Background(), domain.EvaluationFilter{Strategy: strategy.AIName})
	if len(stored) != 2 {
		t.Fatalf("stored %d, want both", len(stored))
	}
}

func has(m map[string]float64, k string) bool { _, ok := m[k]; return ok }
