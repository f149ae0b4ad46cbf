package strategy_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/ai/spend"
	"kestrel/domain"
	"kestrel/strategy"
)

// spendRig is an AI rig whose decisions are priced and budgeted from the
// rig's own store.
func spendRig(t *testing.T, m *model, budget map[string]decimal.Decimal) *rig {
	var r *rig
	book := &spend.Book{
		Prices: func() map[string]spend.Price {
			return map[string]spend.Price{"fake-model": {Input: decimal.NewFromInt(2), Output: decimal.NewFromInt(8)}}
		},
		Budgets: func() map[string]decimal.Decimal { return budget },
		Usage: func(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error) {
			return r.store.AIUsage(ctx, since, until)
		},
		Now: time.Now,
	}
	r = newRig(t, strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return m, nil },
		Limits: func() string { return "max position 10%" }, Spend: book}))
	return r
}

func TestAIDecisionRecordsTokensAndPricedCost(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "HOLD", Confidence: 0.5, Reasoning: "flat", PromptTokens: 1500, CompletionTokens: 250}}
	r := spendRig(t, m, nil)
	r.enable(t, strategy.AIName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	// 1,500 × $2/M + 250 × $8/M = $0.005
	if len(evs) != 1 || evs[0].InputTokens != 1500 || evs[0].OutputTokens != 250 || evs[0].Cost == nil || !evs[0].Cost.Equal(decimal.RequireFromString("0.005")) {
		t.Fatalf("evaluation %+v", evs)
	}
}

// A spent budget records "paused: budget" decisions without asking the
// model, and they are not failures: the strategy stays enabled.
func TestSpentBudgetPausesDecisionsWithoutDisablingTheStrategy(t *testing.T) {
	m := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.9}}
	r := spendRig(t, m, map[string]decimal.Decimal{"fake": decimal.Zero})
	r.enable(t, strategy.AIName, "BTC-USD")
	for i := range 4 {
		r.mkt.push("BTC-USD", 45000) // a new candle each round
		evs := r.eng.Step(context.Background())
		if len(evs) != 1 || !strings.HasPrefix(evs[0].Error, "paused: budget") || evs[0].Executed || evs[0].Cost == nil || !evs[0].Cost.IsZero() {
			t.Fatalf("round %d: %+v", i, evs)
		}
	}
	if m.got.Symbol != "" {
		t.Fatal("the model was asked over budget")
	}
	if c, _ := r.eng.Get(strategy.AIName); !c.Enabled {
		t.Fatal("a budget pause disabled the strategy like a failure")
	}
}
