package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var _ domain.StrategyStore = (*Store)(nil)

const evaluationCols = `id, at, strategy, symbol, candle_time, decision, confidence, reasoning, indicators, executed,
	reason, order_id, provider, model, latency_ms, prompt_hash, prompt, raw, error, strategy_version, template_version,
	input_tokens, output_tokens, cost`

// evaluationSelect reads the cost as text (decimal, exact).
const evaluationSelect = evaluationCols + `::text`

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
	_, err = s.db.Exec(ctx, `INSERT INTO strategies (name, type, enabled, config, active_version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (name) DO UPDATE SET type = excluded.type, enabled = excluded.enabled, config = excluded.config,
		active_version = excluded.active_version, updated_at = excluded.updated_at`,
		st.Name, st.Type, st.Enabled, cfg, st.ActiveVersion, st.CreatedAt, st.UpdatedAt)
	return err
}

// Strategies implements domain.StrategyStore.
func (s *Store) Strategies(ctx context.Context) ([]domain.StrategyRecord, error) {
	rows, err := s.db.Query(ctx, `SELECT name, type, enabled, config, active_version, created_at, updated_at FROM strategies ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.StrategyRecord{}
	for rows.Next() {
		var st domain.StrategyRecord
		var cfg []byte
		if err := rows.Scan(&st.Name, &st.Type, &st.Enabled, &cfg, &st.ActiveVersion, &st.CreatedAt, &st.UpdatedAt); err != nil {
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
	_, err = s.db.Exec(ctx, `INSERT INTO strategy_evaluations (`+evaluationCols+`, account)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24::numeric, $25)`,
		e.ID, e.Time, e.Strategy, e.Symbol, e.CandleTime, e.Decision, e.Confidence, e.Reasoning, ind, e.Executed,
		e.Reason, e.OrderID, e.Provider, e.Model, e.LatencyMS, e.PromptHash, e.Prompt, e.Raw, e.Error, e.StrategyVersion, e.TemplateVersion,
		e.InputTokens, e.OutputTokens, costText(e.Cost), e.Account)
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
	rows, err := s.db.Query(ctx, `SELECT `+evaluationSelect+`, account FROM strategy_evaluations
		WHERE account = $6 AND ($1 = '' OR strategy = $1) AND ($2 = '' OR symbol = $2) AND ($3::boolean IS NULL OR executed = $3)
		AND ($4::timestamptz IS NULL OR at >= $4)
		ORDER BY at DESC, id DESC LIMIT $5`, f.Strategy, f.Symbol, f.Executed, since, f.Limit, f.Account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Evaluation{}
	for rows.Next() {
		var e domain.Evaluation
		var ind []byte
		var cost *string
		if err := rows.Scan(&e.ID, &e.Time, &e.Strategy, &e.Symbol, &e.CandleTime, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error, &e.StrategyVersion, &e.TemplateVersion,
			&e.InputTokens, &e.OutputTokens, &cost, &e.Account); err != nil {
			return nil, err
		}
		if e.Cost, err = costOf(cost); err != nil {
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
	var cost *string
	err := s.db.QueryRow(ctx, `SELECT `+evaluationSelect+` FROM strategy_evaluations
		WHERE prompt_hash = $1 AND error = '' AND decision <> ''
		  AND strategy IN (SELECT name FROM strategies WHERE type = 'ai_driven') ORDER BY at DESC, id DESC LIMIT 1`, promptHash).
		Scan(&e.ID, &e.Time, &e.Strategy, &e.Symbol, &e.CandleTime, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error, &e.StrategyVersion, &e.TemplateVersion,
			&e.InputTokens, &e.OutputTokens, &cost)
	found := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return domain.Evaluation{}, false, err
	}
	if found {
		e.Time, e.CandleTime = e.Time.UTC(), e.CandleTime.UTC()
		if err := indicatorsInto(&e.Indicators, ind); err != nil {
			return domain.Evaluation{}, false, err
		}
		if e.Cost, err = costOf(cost); err != nil {
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

// AddStrategyVersion implements domain.StrategyStore. Two saves at once may
// both read the same highest number; the primary key refuses the second,
// which is tried again with the next number.
func (s *Store) AddStrategyVersion(ctx context.Context, v domain.StrategyVersion) (domain.StrategyVersion, error) {
	if v.Strategy == "" {
		return v, domain.Errorf(domain.EInvalid, "Strategy name is required")
	}
	params, err := configText(v.Params)
	if err != nil {
		return v, err
	}
	for try := 0; ; try++ {
		err = s.db.QueryRow(ctx, `INSERT INTO strategy_versions (strategy, version, params, parent, note, created_by, created_at)
			SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6 FROM strategy_versions WHERE strategy = $1
			RETURNING version`, v.Strategy, params, v.Parent, v.Note, v.CreatedBy, v.CreatedAt).Scan(&v.Version)
		var pgErr *pgconn.PgError
		if err == nil || try == 9 || !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			break
		}
	}
	if err != nil {
		return v, err
	}
	v.Params = json.RawMessage(params)
	return v, nil
}

const versionCols = `strategy, version, params, parent, note, created_by, created_at`

func scanVersion(row pgx.Row) (domain.StrategyVersion, error) {
	var v domain.StrategyVersion
	var params []byte
	if err := row.Scan(&v.Strategy, &v.Version, &params, &v.Parent, &v.Note, &v.CreatedBy, &v.CreatedAt); err != nil {
		return v, err
	}
	v.Params, v.CreatedAt = json.RawMessage(params), v.CreatedAt.UTC()
	return v, nil
}

// StrategyVersions implements domain.StrategyStore.
func (s *Store) StrategyVersions(ctx context.Context, strategy string) ([]domain.StrategyVersion, error) {
	rows, err := s.db.Query(ctx, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = $1 ORDER BY version DESC`, strategy)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.StrategyVersion{}
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// StrategyVersion implements domain.StrategyStore.
func (s *Store) StrategyVersion(ctx context.Context, strategy string, version int) (domain.StrategyVersion, error) {
	v, err := scanVersion(s.db.QueryRow(ctx, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = $1 AND version = $2`, strategy, version))
	return v, notFound(err, fmt.Sprintf("Version %d of %s not found", version, strategy))
}

// costText is the stored form of a cost: NULL when unknown.
func costText(c *decimal.Decimal) *string {
	if c == nil {
		return nil
	}
	t := c.String()
	return &t
}

func costOf(s *string) (*decimal.Decimal, error) {
	if s == nil {
		return nil, nil
	}
	d, err := decimal.NewFromString(*s)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// AIUsage implements domain.StrategyStore.
func (s *Store) AIUsage(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error) {
	rows, err := s.db.Query(ctx, `SELECT at, strategy, provider, model, input_tokens, output_tokens, cost::text, false AS shadow, id
		FROM strategy_evaluations WHERE provider <> '' AND at >= $1 AND at < $2
		UNION ALL SELECT at, strategy, provider, model, input_tokens, output_tokens, cost::text, true, id
		FROM shadow_decisions WHERE role = 'shadow' AND provider <> '' AND at >= $1 AND at < $2
		ORDER BY 1, 8, 9`, since, until)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.AIUsage{}
	for rows.Next() {
		var u domain.AIUsage
		var cost *string
		var id string
		if err := rows.Scan(&u.Time, &u.Strategy, &u.Provider, &u.Model, &u.InputTokens, &u.OutputTokens, &cost, &u.Shadow, &id); err != nil {
			return nil, err
		}
		u.Time = u.Time.UTC()
		if u.Cost, err = costOf(cost); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
