package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

var _ domain.StrategyStore = (*Store)(nil)

const evaluationCols = `id, at, strategy, symbol, candle_time, decision, confidence, reasoning, indicators, executed,
	reason, order_id, provider, model, latency_ms, prompt_hash, prompt, raw, error`

// configText is the stored form of a strategy's configuration: {} when
// empty, the document itself when it is valid JSON. jsonb keeps its meaning,
// not its bytes (key order and spacing are normalised).
func configText(cfg json.RawMessage) (string, error) {
	if len(cfg) == 0 {
		return "{}", nil
	}
	if !json.Valid(cfg) {
		return "", domain.Errorf(domain.EInvalid, "Strategy configuration is not valid JSON")
	}
	return string(cfg), nil
}

// indicatorsText is the stored form of an indicator map: NULL for a nil map
// so it reads back nil, JSON otherwise.
func indicatorsText(m map[string]float64) (*string, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil { // NaN or ±Inf: JSON has no number for them
		return nil, domain.Errorf(domain.EInvalid, "Indicators cannot be stored: %v", err)
	}
	s := string(b)
	return &s, nil
}

func indicatorsInto(dst *map[string]float64, b []byte) error {
	if b == nil {
		*dst = nil
		return nil
	}
	*dst = map[string]float64{}
	return json.Unmarshal(b, dst)
}

// SaveStrategy implements domain.StrategyStore.
func (s *Store) SaveStrategy(ctx context.Context, st domain.StrategyRecord) error {
	if st.Name == "" {
		return domain.Errorf(domain.EInvalid, "Strategy name is required")
	}
	cfg, err := configText(st.Config)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO strategies (name, type, enabled, config, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (name) DO UPDATE SET type = excluded.type, enabled = excluded.enabled, config = excluded.config, updated_at = excluded.updated_at`,
		st.Name, st.Type, st.Enabled, cfg, st.CreatedAt, st.UpdatedAt)
	return err
}

// Strategies implements domain.StrategyStore.
func (s *Store) Strategies(ctx context.Context) ([]domain.StrategyRecord, error) {
	rows, err := s.db.Query(ctx, `SELECT name, type, enabled, config, created_at, updated_at FROM strategies ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.StrategyRecord{}
	for rows.Next() {
		var st domain.StrategyRecord
		var cfg []byte
		if err := rows.Scan(&st.Name, &st.Type, &st.Enabled, &cfg, &st.CreatedAt, &st.UpdatedAt); err != nil {
			return nil, err
		}
		st.Config, st.CreatedAt, st.UpdatedAt = json.RawMessage(cfg), st.CreatedAt.UTC(), st.UpdatedAt.UTC()
		out = append(out, st)
	}
	return out, rows.Err()
}

// AppendEvaluation implements domain.StrategyStore.
func (s *Store) AppendEvaluation(ctx context.Context, e domain.Evaluation) error {
	if e.ID == "" {
		return domain.Errorf(domain.EInvalid, "Evaluation id is required")
	}
	ind, err := indicatorsText(e.Indicators)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO strategy_evaluations (`+evaluationCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
		e.ID, e.Time, e.Strategy, e.Symbol, e.CandleTime, e.Decision, e.Confidence, e.Reasoning, ind, e.Executed,
		e.Reason, e.OrderID, e.Provider, e.Model, e.LatencyMS, e.PromptHash, e.Prompt, e.Raw, e.Error)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "Evaluation %s is already stored", e.ID)
	}
	return err
}

// Evaluations implements domain.StrategyStore.
func (s *Store) Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	var since *time.Time
	if !f.Since.IsZero() {
		since = &f.Since
	}
	rows, err := s.db.Query(ctx, `SELECT `+evaluationCols+` FROM strategy_evaluations
		WHERE ($1 = '' OR strategy = $1) AND ($2 = '' OR symbol = $2) AND ($3::boolean IS NULL OR executed = $3)
		AND ($4::timestamptz IS NULL OR at >= $4)
		ORDER BY at DESC, id DESC LIMIT $5`, f.Strategy, f.Symbol, f.Executed, since, f.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Evaluation{}
	for rows.Next() {
		var e domain.Evaluation
		var ind []byte
		if err := rows.Scan(&e.ID, &e.Time, &e.Strategy, &e.Symbol, &e.CandleTime, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error); err != nil {
			return nil, err
		}
		e.Time, e.CandleTime = e.Time.UTC(), e.CandleTime.UTC()
		if err := indicatorsInto(&e.Indicators, ind); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// PruneEvaluations implements domain.StrategyStore.
func (s *Store) PruneEvaluations(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM strategy_evaluations WHERE at < $1`, before)
	return tag.RowsAffected(), err
}

// RecordedDecision implements domain.StrategyStore. Only an AI-driven
// instance's evaluation holds the model's own answer (a hybrid's is the
// combined decision): other answers come from the recordings.
func (s *Store) RecordedDecision(ctx context.Context, promptHash string) (domain.Evaluation, bool, error) {
	if promptHash == "" {
		return domain.Evaluation{}, false, nil
	}
	var e domain.Evaluation
	var ind []byte
	err := s.db.QueryRow(ctx, `SELECT `+evaluationCols+` FROM strategy_evaluations
		WHERE prompt_hash = $1 AND error = '' AND decision <> ''
		  AND strategy IN (SELECT name FROM strategies WHERE type = 'ai_driven') ORDER BY at DESC, id DESC LIMIT 1`, promptHash).
		Scan(&e.ID, &e.Time, &e.Strategy, &e.Symbol, &e.CandleTime, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error)
	found := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return domain.Evaluation{}, false, err
	}
	if found {
		e.Time, e.CandleTime = e.Time.UTC(), e.CandleTime.UTC()
		if err := indicatorsInto(&e.Indicators, ind); err != nil {
			return domain.Evaluation{}, false, err
		}
	}
	var r domain.Evaluation
	err = s.db.QueryRow(ctx, `SELECT at, source, provider, model, decision, confidence, reasoning, prompt, raw FROM ai_recordings
		WHERE prompt_hash = $1 ORDER BY at DESC LIMIT 1`, promptHash).
		Scan(&r.Time, &r.Strategy, &r.Provider, &r.Model, &r.Decision, &r.Confidence, &r.Reasoning, &r.Prompt, &r.Raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return e, found, nil
	}
	if err != nil {
		return domain.Evaluation{}, false, err
	}
	if r.Time, r.PromptHash = r.Time.UTC(), promptHash; found && !r.Time.After(e.Time) {
		return e, true, nil
	}
	return r, true, nil
}

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
