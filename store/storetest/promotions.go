package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// RunPromotions is the contract for domain.PromotionStore and for
// evaluations kept per paper account. open returns a fresh, empty store.
func RunPromotions(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("StagesClosedOnce", func(t *testing.T) { testPromotionStages(t, open(t)) })
	t.Run("EvaluationsPerAccount", func(t *testing.T) { testEvaluationAccounts(t, open(t)) })
}

func testPromotionStages(t *testing.T, s domain.Store) {
	ctx := context.Background()
	seen := 42.0
	p := domain.Promotion{ID: "pr1", Strategy: "rsi", Version: 3, Stage: domain.StagePaper, Status: domain.PromotionRunning, Account: "promo-pr1",
		StartingUSD: dec("10000.5"), StartedBy: "op@example.com", StartedAt: at, Market: "replay",
		Gates: []domain.Gate{{Name: "OOS trades", Setting: "trading.promotion.paper.minOOSTrades", Required: 30, Seen: &seen, Passed: true}}}
	if err := s.AddPromotion(ctx, p); err != nil {
		t.Fatal(err)
	}
	again := p
	again.ID = "pr2"
	wantCode(t, s.AddPromotion(ctx, again), domain.EConflict) // one running paper stage per version
	got, err := s.Promotion(ctx, "pr1")
	if err != nil || got.Account != "promo-pr1" || got.Market != "replay" || !got.StartingUSD.Equal(dec("10000.5")) || !got.StartedAt.Equal(at) || got.EndedAt != nil ||
		len(got.Gates) != 1 || got.Gates[0].Seen == nil || *got.Gates[0].Seen != 42 || !got.Gates[0].Passed {
		t.Fatalf("Promotion = %+v, %v", got, err)
	}
	_, err = s.Promotion(ctx, "nope")
	wantCode(t, err, domain.ENotFound)

	end := at.Add(time.Hour)
	closed, err := s.ClosePromotion(ctx, "pr1", domain.PromotionDemoted, "op@example.com", "drifts", end)
	if err != nil || closed.Status != domain.PromotionDemoted || closed.EndedAt == nil || !closed.EndedAt.Equal(end) || closed.Reason != "drifts" {
		t.Fatalf("closed = %+v, %v", closed, err)
	}
	_, err = s.ClosePromotion(ctx, "pr1", domain.PromotionPromoted, "x", "", end)
	wantCode(t, err, domain.EConflict) // closed once
	_, err = s.ClosePromotion(ctx, "nope", domain.PromotionDemoted, "x", "", end)
	wantCode(t, err, domain.ENotFound)

	// Once demoted, the version may go to paper again.
	again.StartedAt = end
	if err := s.AddPromotion(ctx, again); err != nil {
		t.Fatal(err)
	}
	other := domain.Promotion{ID: "pr3", Strategy: "macd", Version: 1, Stage: domain.StagePaper, Status: domain.PromotionRunning, StartedAt: at}
	if err := s.AddPromotion(ctx, other); err != nil {
		t.Fatal(err)
	}
	ids := func(ps []domain.Promotion, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, p := range ps {
			out += p.ID + " "
		}
		return out
	}
	if got, want := ids(s.Promotions(ctx, "rsi", false)), "pr2 pr1 "; got != want {
		t.Errorf("rsi's stages = %q, want %q (newest first)", got, want)
	}
	if got, want := ids(s.Promotions(ctx, "", true)), "pr2 pr3 "; got != want {
		t.Errorf("running stages = %q, want %q", got, want)
	}
}

func testEvaluationAccounts(t *testing.T, s domain.Store) {
	ctx := context.Background()
	ev := func(id, account string) domain.Evaluation {
		return domain.Evaluation{ID: id, Time: at, Strategy: "rsi", Symbol: "BTC-USD", CandleTime: at, Decision: "BUY", Confidence: 0.8,
			StrategyVersion: 3, Account: account}
	}
	for _, e := range []domain.Evaluation{ev("e-main", ""), ev("e-paper", "promo-1")} {
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for account, want := range map[string]string{"": "e-main", "promo-1": "e-paper"} {
		got, err := s.Evaluations(ctx, domain.EvaluationFilter{Account: account, Strategy: "rsi"})
		if err != nil || len(got) != 1 || got[0].ID != want || got[0].Account != account {
			t.Errorf("account %q: evaluations = %+v, %v; want only %s", account, got, err, want)
		}
	}
}
