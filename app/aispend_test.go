package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/ai/aifake"
)

// aiSpend is GET /api/ai/spend.
type aiSpend struct {
	Total      spendTotals
	Days       []struct{ Day string }
	Strategies []struct {
		Strategy string
		spendTotals
	}
	Providers []struct {
		Provider string
		Month    spendTotals
		Budget   *decimal.Decimal
		Paused   bool
	}
	UnpricedModels []string `json:"unpriced_models"`
}

type spendTotals struct {
	Decisions         int
	InputTokens       int              `json:"input_tokens"`
	OutputTokens      int              `json:"output_tokens"`
	Cost              *decimal.Decimal `json:"cost"`
	KnownCost         decimal.Decimal  `json:"known_cost"`
	UnpricedDecisions int              `json:"unpriced_decisions"`
}

// With a local OpenAI-compatible model that reports usage, Test AI records
// each decision's tokens and cost; the spend view adds up to the fake's
// token counts, an unpriced model's cost is unknown (null), not 0, and a
// small monthly budget pauses decisions (no model call) with an alert.
func TestAISpendAndBudget(t *testing.T) {
	fake := &aifake.Server{}
	s, op, trader := liveServer(t, fake)
	spendNow := func() aiSpend {
		t.Helper()
		var sp aiSpend
		s.into(s.do("GET", "/api/ai/spend", op, ""), &sp)
		return sp
	}
	analyze := func() reply {
		t.Helper()
		return s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, "")
	}

	// No price for the fake's model: the tokens count, the cost is unknown.
	if r := analyze(); r.Status != 200 {
		t.Fatalf("Test AI: %+v", r)
	}
	in1, out1 := fake.Tokens()
	sp := spendNow()
	if in1 == 0 || out1 == 0 || sp.Total.InputTokens != in1 || sp.Total.OutputTokens != out1 || sp.Total.Decisions != 1 {
		t.Fatalf("spend %+v, the fake reported %d/%d tokens", sp.Total, in1, out1)
	}
	if sp.Total.Cost != nil || sp.Total.UnpricedDecisions != 1 || len(sp.UnpricedModels) != 1 || sp.UnpricedModels[0] != "openai fake-model" {
		t.Fatalf("an unpriced model's cost: %+v %v", sp.Total, sp.UnpricedModels)
	}

	// Priced: $1.50 in, $6 out per million tokens.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"pricing":{"fake-model":{"input":"1.50","output":"6"}}}}}`); r.Status != 200 {
		t.Fatalf("pricing: %+v", r)
	}
	for range 2 {
		if r := analyze(); r.Status != 200 {
			t.Fatalf("Test AI: %+v", r)
		}
	}
	in3, out3 := fake.Tokens()
	want := decimal.NewFromInt(int64(in3 - in1)).Mul(decimal.RequireFromString("1.5")).
		Add(decimal.NewFromInt(int64(out3 - out1)).Mul(decimal.NewFromInt(6))).Div(decimal.NewFromInt(1_000_000))
	sp = spendNow()
	if sp.Total.InputTokens != in3 || sp.Total.OutputTokens != out3 || sp.Total.Decisions != 3 || !sp.Total.KnownCost.Equal(want) || sp.Total.Cost != nil {
		t.Fatalf("spend %+v, want tokens %d/%d and known cost %s (one decision unpriced)", sp.Total, in3, out3, want)
	}
	if len(sp.Strategies) != 1 || sp.Strategies[0].Strategy != "ai_strategy" || sp.Strategies[0].InputTokens != in3 || len(sp.Days) != 1 {
		t.Fatalf("per strategy and day: %+v %+v", sp.Strategies, sp.Days)
	}
	var decisions struct {
		Decisions []struct {
			InputTokens  int              `json:"input_tokens"`
			OutputTokens int              `json:"output_tokens"`
			Cost         *decimal.Decimal `json:"cost"`
		}
	}
	s.into(s.do("GET", "/api/strategy/ai-decisions?limit=1", op, ""), &decisions)
	if d := decisions.Decisions; len(d) != 1 || d[0].InputTokens == 0 || d[0].Cost == nil || !d[0].Cost.IsPositive() {
		t.Fatalf("the latest decision's usage: %+v", d)
	}

	// A budget at what is spent: the next decision pauses without a call.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"monthlyBudget":{"openai":"`+want.String()+`"}}}}`); r.Status != 200 {
		t.Fatalf("budget: %+v", r)
	}
	calls := fake.Calls()
	r := analyze()
	if r.Status != 409 || !strings.Contains(r.Error.Message, "paused: budget") {
		t.Fatalf("Test AI over budget: %+v", r)
	}
	if fake.Calls() != calls {
		t.Fatal("the model was called over budget")
	}
	var alerts struct {
		Alerts []struct{ Severity, Title, Message string }
	}
	s.into(s.do("GET", "/api/system/alerts?resolved=false", op, ""), &alerts)
	found := false
	for _, a := range alerts.Alerts {
		found = found || (a.Title == "AI budget reached: openai" && strings.Contains(a.Message, "paused"))
	}
	if !found {
		t.Fatalf("no budget alert: %+v", alerts)
	}
	sp = spendNow()
	if len(sp.Providers) != 1 || !sp.Providers[0].Paused || sp.Providers[0].Budget == nil || sp.Total.Decisions != 4 || sp.Total.InputTokens != in3 {
		t.Fatalf("budget state %+v, totals %+v", sp.Providers, sp.Total)
	}
	decisions.Decisions = nil // omitted fields must not keep the last answer's
	s.into(s.do("GET", "/api/strategy/ai-decisions?limit=1", op, ""), &decisions)
	if d := decisions.Decisions; len(d) != 1 || d[0].InputTokens != 0 || d[0].Cost == nil || !d[0].Cost.IsZero() {
		t.Fatalf("the paused decision: %+v", d)
	}

	// Operators only; bad dates are field errors.
	if r := s.do("GET", "/api/ai/spend", trader, ""); r.Status != 403 {
		t.Errorf("trader: %d", r.Status)
	}
	if r := s.do("GET", "/api/ai/spend?from=2026-13-01", op, ""); r.Status != 400 || r.Error.Fields["from"] == "" {
		t.Errorf("bad from: %+v", r)
	}
	if r := s.do("GET", "/api/ai/spend?from=2026-03-02&to=2026-03-01", op, ""); r.Status != 400 || r.Error.Fields["to"] == "" {
		t.Errorf("to before from: %+v", r)
	}
}
