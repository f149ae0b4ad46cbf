package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

// SaveAIRecordings implements domain.StrategyStore.
func (s *Store) SaveAIRecordings(ctx context.Context, rs []domain.AIRecording) error {
	if len(rs) == 0 {
		return nil
	}
	rows := make([][]any, len(rs))
	for i, r := range rs {
		if r.PromptHash == "" || r.Decision == "" {
			return domain.Errorf(domain.EInvalid, "An AI recording needs a prompt hash and a decision")
		}
		rows[i] = []any{r.PromptHash, r.At, r.Source, r.Provider, r.Model, r.Decision, r.Confidence, r.Reasoning, r.Prompt, r.Raw}
	}
	_, err := s.db.CopyFrom(ctx, pgx.Identifier{"ai_recordings"},
		[]string{"prompt_hash", "at", "source", "provider", "model", "decision", "confidence", "reasoning", "prompt", "raw"}, pgx.CopyFromRows(rows))
	return err
}
