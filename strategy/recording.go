package strategy

import (
	"context"
	"log/slog"

	"kestrel/domain"
)

// recordAnswer keeps the model's own answer of an evaluation for replay
// (backtests in recorded mode): a hybrid's evaluation stores the combined
// decision, so the answer the model gave is recorded on its own. A
// built-in analyst's answer has no prompt to replay by and is not kept.
func (e *Engine) recordAnswer(ctx context.Context, ev domain.Evaluation, p *AIProvenance) {
	if p == nil || p.Answer == nil || p.PromptHash == "" || ev.Error != "" {
		return
	}
	rec := domain.AIRecording{PromptHash: p.PromptHash, At: ev.Time, Source: "evaluation:" + ev.ID, Provider: p.Provider, Model: p.Model,
		Decision: p.Answer.Decision, Confidence: p.Answer.Confidence, Reasoning: p.Answer.Reasoning, Prompt: p.Prompt, Raw: p.Raw}
	if err := e.d.Store.SaveAIRecordings(ctx, []domain.AIRecording{rec}); err != nil {
		slog.Error("record the model's answer", "strategy", ev.Strategy, "err", err)
	}
}
