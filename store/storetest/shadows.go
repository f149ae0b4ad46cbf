package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Shadow decisions round-trip exactly (decimal price and cost, nil cost
// unknown), list newest candle first with the live model's first, count
// toward AI usage as shadows (the live copy does not), and go with their
// evaluation when it is pruned.
func testShadowDecisions(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	older := domain.Evaluation{ID: "ev-1", Time: at, Strategy: "ai", Symbol: "BTC-USD", CandleTime: at.Add(-time.Hour), Decision: "BUY",
		Provider: "openai", Model: "live-m", InputTokens: 100, OutputTokens: 10}
	newer := older
	newer.ID, newer.Time, newer.CandleTime = "ev-2", at.Add(time.Hour), at
	for _, e := range []domain.Evaluation{older, newer} {
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	cost := decimal.RequireFromString("0.000012345")
	price := decimal.RequireFromString("60123.45")
	row := func(id, ev, role, model, decision string, e domain.Evaluation) domain.ShadowDecision {
		return domain.ShadowDecision{ID: id, EvaluationID: ev, Time: e.Time, Strategy: "ai", Symbol: "BTC-USD", CandleTime: e.CandleTime,
			Price: price, Role: role, Provider: "openai", Model: model, Decision: decision, Confidence: 0.75, Reasoning: "why",
			InputTokens: 100, OutputTokens: 10, LatencyMS: 42}
	}
	live1, shadow1 := row("s1", "ev-1", domain.RoleLive, "live-m", "BUY", older), row("s2", "ev-1", domain.RoleShadow, "shadow-m", "SELL", older)
	shadow1.Cost = &cost
	live2, failed2 := row("s3", "ev-2", domain.RoleLive, "live-m", "HOLD", newer), row("s4", "ev-2", domain.RoleShadow, "shadow-m", "", newer)
	failed2.Error, failed2.Confidence, failed2.Reasoning, failed2.InputTokens, failed2.OutputTokens = "timeout", 0, "", 0, 0
	if err := s.SaveShadowDecisions(ctx, []domain.ShadowDecision{shadow1, live1}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveShadowDecisions(ctx, []domain.ShadowDecision{failed2, live2}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: "ai"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []domain.ShadowDecision{live2, failed2, live1, shadow1}; !reflect.DeepEqual(got, want) {
		t.Errorf("ShadowDecisions:\n got %+v\nwant %+v", got, want)
	}
	if got, _ := s.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: "ai", Since: at}); len(got) != 2 {
		t.Errorf("since the newer candle: %d rows, want 2", len(got))
	}
	if got, _ := s.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: "other"}); len(got) != 0 {
		t.Errorf("another strategy: %d rows, want 0", len(got))
	}
	wantCode(t, s.SaveShadowDecisions(ctx, []domain.ShadowDecision{live1}), domain.EConflict)
	bad := live1
	bad.ID, bad.Role = "s9", "ghost"
	wantCode(t, s.SaveShadowDecisions(ctx, []domain.ShadowDecision{bad}), domain.EInvalid)

	usage, err := s.AIUsage(ctx, at, at.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.AIUsage{
		{Time: at, Strategy: "ai", Provider: "openai", Model: "live-m", InputTokens: 100, OutputTokens: 10},
		{Time: at, Strategy: "ai", Provider: "openai", Model: "shadow-m", InputTokens: 100, OutputTokens: 10, Cost: &cost, Shadow: true},
		{Time: at.Add(time.Hour), Strategy: "ai", Provider: "openai", Model: "live-m", InputTokens: 100, OutputTokens: 10},
		{Time: at.Add(time.Hour), Strategy: "ai", Provider: "openai", Model: "shadow-m", Shadow: true},
	}
	if !reflect.DeepEqual(usage, want) {
		t.Errorf("AIUsage:\n got %+v\nwant %+v", usage, want)
	}

	if _, err := s.PruneEvaluations(ctx, at.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ShadowDecisions(ctx, domain.ShadowFilter{}); len(got) != 2 || got[0].EvaluationID != "ev-2" {
		t.Errorf("after pruning ev-1: %+v, want ev-2's two rows", got)
	}
}
