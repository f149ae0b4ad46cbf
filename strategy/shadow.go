package strategy

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
)

// ShadowTimeout bounds a shadow model's answer, retries and polling
// included, beyond its provider's own per-call timeout: an answer later
// than this is recorded as a timeout.
var ShadowTimeout = 3 * time.Minute

// ShadowAnswer is what one shadow model answered (or why it did not).
type ShadowAnswer struct {
	Model    ShadowModel
	Provider string // the provider's name
	Label    string // the configured model, as the provider labels it
	Decision ai.Decision
	Cost     *decimal.Decimal
	Err      error
}

// ShadowRun is the shadow models of one decision, asked concurrently
// with the live model; Wait returns their answers in the configured order.
type ShadowRun struct {
	wg      sync.WaitGroup
	answers []ShadowAnswer
}

// Wait blocks until every shadow has answered, failed or timed out.
func (r *ShadowRun) Wait() []ShadowAnswer {
	r.wg.Wait()
	return r.answers
}

// startShadows asks each shadow model req in its own goroutine and
// returns at once; nil when there are none to ask. A shadow whose
// provider's budget is spent is not asked (recorded as paused). The calls
// outlive ctx's cancellation (a Test AI request may end first) but not
// ShadowTimeout.
func (s *aiStrategy) startShadows(ctx context.Context, req ai.Request) *ShadowRun {
	if len(s.params.ShadowModels) == 0 || s.d.Shadow == nil {
		return nil
	}
	run := &ShadowRun{answers: make([]ShadowAnswer, len(s.params.ShadowModels))}
	for i, m := range s.params.ShadowModels {
		run.wg.Add(1)
		go func() {
			defer run.wg.Done()
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShadowTimeout)
			defer cancel()
			run.answers[i] = s.askShadow(sctx, m, req)
		}()
	}
	return run
}

// askShadow asks one shadow model, recording a panic as its failure so a
// shadow can never break the live decision.
func (s *aiStrategy) askShadow(ctx context.Context, m ShadowModel, req ai.Request) (a ShadowAnswer) {
	a = ShadowAnswer{Model: m, Provider: m.Provider, Label: m.Label()}
	defer func() {
		if r := recover(); r != nil {
			a.Err = fmt.Errorf("shadow model failed: %v", r)
		}
	}()
	p, err := s.d.Shadow(m)
	if err != nil {
		a.Err = fmt.Errorf("AI provider: %w", err)
		return a
	}
	a.Provider, a.Label = p.Name(), p.ModelLabel(m.Model)
	if s.d.Spend != nil {
		why, err := s.d.Spend.Paused(ctx, p.Name())
		if err == nil && why != "" {
			err = &BudgetPaused{Provider: p.Name(), Why: why}
		}
		if err != nil {
			zero := decimal.Zero // not asked: no cost
			a.Cost, a.Err = &zero, err
			return a
		}
	}
	r := req
	r.Model = m.Model
	// The row keeps the configured model's label (what the leaderboard
	// names it by), not the host's report, which may carry a dated suffix
	// (or, from a single-model host, not differ at all); pricing tries both.
	d, err := p.Decide(ctx, r)
	if s.d.Spend != nil {
		a.Cost = s.d.Spend.Cost(a.Provider, []string{d.Model, m.Model}, d.PromptTokens, d.CompletionTokens)
	}
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("timed out after %s: %w", ShadowTimeout, err)
	}
	a.Decision, a.Err = d, err
	return a
}
