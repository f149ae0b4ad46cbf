package strategy

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// recordShadows stores, once every shadow has answered, the shadows'
// decisions and the live model's own answer beside them, linked to ev. It
// runs in the background: the live decision was stored (and traded) without
// waiting. WaitShadows waits for it.
func (e *Engine) recordShadows(ctx context.Context, ev domain.Evaluation, sig Signal, price decimal.Decimal) {
	if sig.Shadows == nil {
		return
	}
	e.shadows.Add(1)
	go func() {
		defer e.shadows.Done()
		rows := []domain.ShadowDecision{liveRow(ev, sig.AI, price)}
		for i, a := range sig.Shadows.Wait() {
			d := shadowRow(ev, a, price)
			d.ID = fmt.Sprintf("%s:%d", ev.ID, i+1) // lists in the configured order
			rows = append(rows, d)
		}
		if err := e.d.Store.SaveShadowDecisions(context.WithoutCancel(ctx), rows); err != nil {
			slog.Error("store shadow decisions", "strategy", ev.Strategy, "evaluation", ev.ID, "err", err)
		}
	}()
}

// WaitShadows waits until the shadow decisions of every evaluation made so
// far are stored (tests). Call it once no step runs.
func (e *Engine) WaitShadows() { e.shadows.Wait() }

// DrainShadows is WaitShadows for shutdown, bounded by max (a shadow may be
// waiting on a slow model): false when some were still out; their answers
// are then not stored.
func (e *Engine) DrainShadows(max time.Duration) bool {
	done := make(chan struct{})
	go func() {
		e.shadows.Wait()
		close(done)
	}()
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// liveRow is the live model's own answer (a hybrid's model answer, not its
// combined decision), as the leaderboard compares it.
func liveRow(ev domain.Evaluation, p *AIProvenance, price decimal.Decimal) domain.ShadowDecision {
	d := domain.ShadowDecision{ID: ev.ID + ":0", EvaluationID: ev.ID, Time: ev.Time, Strategy: ev.Strategy, Symbol: ev.Symbol,
		CandleTime: ev.CandleTime, Price: price, Role: domain.RoleLive, Error: ev.Error}
	if p == nil {
		return d
	}
	d.Provider, d.Model, d.InputTokens, d.OutputTokens, d.Cost = p.Provider, p.Model, p.InputTokens, p.OutputTokens, p.Cost
	d.LatencyMS = p.Latency.Milliseconds()
	if p.Answer != nil {
		d.Decision, d.Confidence, d.Reasoning, d.Error = p.Answer.Decision, p.Answer.Confidence, p.Answer.Reasoning, ""
	}
	return d
}

func shadowRow(ev domain.Evaluation, a ShadowAnswer, price decimal.Decimal) domain.ShadowDecision {
	d := domain.ShadowDecision{EvaluationID: ev.ID, Time: ev.Time, Strategy: ev.Strategy, Symbol: ev.Symbol,
		CandleTime: ev.CandleTime, Price: price, Role: domain.RoleShadow, Provider: a.Provider, Model: a.Label,
		InputTokens: a.Decision.PromptTokens, OutputTokens: a.Decision.CompletionTokens, Cost: a.Cost,
		LatencyMS: a.Decision.Latency.Milliseconds()}
	if a.Err != nil {
		d.Error = a.Err.Error()
		return d
	}
	d.Decision, d.Confidence, d.Reasoning = a.Decision.Decision, a.Decision.Confidence, a.Decision.Reasoning
	return d
}
