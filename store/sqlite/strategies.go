package sqlite

import (
	"context"
	"database/sql"

	"kestrel/domain"
)

// SaveAIRecordings implements domain.StrategyStore.
func (s *Store) SaveAIRecordings(ctx context.Context, rs []domain.AIRecording) error {
	if len(rs) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO ai_recordings (prompt_hash, at, source, provider, model, decision, confidence, reasoning, prompt, raw)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, r := range rs {
			if r.PromptHash == "" || r.Decision == "" {
				return domain.Errorf(domain.EInvalid, "An AI recording needs a prompt hash and a decision")
			}
			if _, err := st.ExecContext(ctx, r.PromptHash, ms(r.At), r.Source, r.Provider, r.Model, r.Decision, r.Confidence, r.Reasoning, r.Prompt, r.Raw); err != nil {
				return err
			}
		}
		return nil
	})
}
