package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var _ domain.StrategyStore = (*Store)(nil)

const evaluationCols = `id, at, strategy, symbol, candle_time, decision, confidence, reasoning, indicators, executed,
	reason, order_id, provider, model, latency_ms, prompt_hash, prompt, raw, error, strategy_version, template_version,
	input_tokens, output_tokens, cost`

// configText is the stored form of a strategy's configuration: {} when
// empty, the document itself when it is valid JSON.
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
func indicatorsText(m map[string]float64) (sql.NullString, error) {
	if m == nil {
		return sql.NullString{}, nil
	}
	b, err := json.Marshal(m)
	if err != nil { // NaN or ±Inf: JSON has no number for them
		return sql.NullString{}, domain.Errorf(domain.EInvalid, "Indicators cannot be stored: %v", err)
	}
	return sql.NullString{String: string(b), Valid: true}, nil
}

func indicatorsInto(dst *map[string]float64, s sql.NullString) error {
	if !s.Valid {
		*dst = nil
		return nil
	}
	*dst = map[string]float64{}
	return json.Unmarshal([]byte(s.String), dst)
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
	_, err = s.w.ExecContext(ctx, `INSERT INTO strategies (name, type, enabled, config, active_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET type = excluded.type, enabled = excluded.enabled, config = excluded.config,
		active_version = excluded.active_version, updated_at = excluded.updated_at`,
		st.Name, st.Type, st.Enabled, cfg, st.ActiveVersion, ms(st.CreatedAt), ms(st.UpdatedAt))
	return err
}

// Strategies implements domain.StrategyStore.
func (s *Store) Strategies(ctx context.Context) ([]domain.StrategyRecord, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT name, type, enabled, config, active_version, created_at, updated_at FROM strategies ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.StrategyRecord{}
	for rows.Next() {
		var st domain.StrategyRecord
		var cfg string
		var created, updated int64
		if err := rows.Scan(&st.Name, &st.Type, &st.Enabled, &cfg, &st.ActiveVersion, &created, &updated); err != nil {
			return nil, err
		}
		st.Config, st.CreatedAt, st.UpdatedAt = json.RawMessage(cfg), fromMS(created), fromMS(updated)
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
	_, err = s.w.ExecContext(ctx, `INSERT INTO strategy_evaluations (`+evaluationCols+`, account)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, ms(e.Time), e.Strategy, e.Symbol, ms(e.CandleTime), e.Decision, e.Confidence, e.Reasoning, ind, e.Executed,
		e.Reason, e.OrderID, e.Provider, e.Model, e.LatencyMS, e.PromptHash, e.Prompt, e.Raw, e.Error, e.StrategyVersion, e.TemplateVersion,
		e.InputTokens, e.OutputTokens, costText(e.Cost), e.Account)
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "Evaluation %s is already stored", e.ID)
	}
	return err
}

// Evaluations implements domain.StrategyStore.
func (s *Store) Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error) {
	q, args := `SELECT `+evaluationCols+`, account FROM strategy_evaluations WHERE account = ?`, []any{f.Account}
	if f.Strategy != "" {
		q, args = q+` AND strategy = ?`, append(args, f.Strategy)
	}
	if f.Symbol != "" {
		q, args = q+` AND symbol = ?`, append(args, f.Symbol)
	}
	if f.Executed != nil {
		q, args = q+` AND executed = ?`, append(args, *f.Executed)
	}
	if !f.Since.IsZero() {
		q, args = q+` AND at >= ?`, append(args, ms(f.Since))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY at DESC, id DESC LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Evaluation{}
	for rows.Next() {
		var e domain.Evaluation
		var at, candle int64
		var ind, cost sql.NullString
		if err := rows.Scan(&e.ID, &at, &e.Strategy, &e.Symbol, &candle, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error, &e.StrategyVersion, &e.TemplateVersion,
			&e.InputTokens, &e.OutputTokens, &cost, &e.Account); err != nil {
			return nil, err
		}
		if e.Cost, err = costOf(cost); err != nil {
			return nil, err
		}
		e.Time, e.CandleTime = fromMS(at), fromMS(candle)
		if err := indicatorsInto(&e.Indicators, ind); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// PruneEvaluations implements domain.StrategyStore.
func (s *Store) PruneEvaluations(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM strategy_evaluations WHERE at < ?`, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RecordedDecision implements domain.StrategyStore. Only an AI-driven
// instance's evaluation holds the model's own answer (a hybrid's is the
// combined decision): other answers come from the recordings.
func (s *Store) RecordedDecision(ctx context.Context, promptHash string) (domain.Evaluation, bool, error) {
	if promptHash == "" {
		return domain.Evaluation{}, false, nil
	}
	var e domain.Evaluation
	var at, candle int64
	var ind, cost sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT `+evaluationCols+` FROM strategy_evaluations
		WHERE prompt_hash = ? AND error = '' AND decision <> ''
		  AND strategy IN (SELECT name FROM strategies WHERE type = 'ai_driven') ORDER BY at DESC, id DESC LIMIT 1`, promptHash).
		Scan(&e.ID, &at, &e.Strategy, &e.Symbol, &candle, &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
			&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error, &e.StrategyVersion, &e.TemplateVersion,
			&e.InputTokens, &e.OutputTokens, &cost)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return domain.Evaluation{}, false, err
	}
	if found {
		e.Time, e.CandleTime = fromMS(at), fromMS(candle)
		if err := indicatorsInto(&e.Indicators, ind); err != nil {
			return domain.Evaluation{}, false, err
		}
		if e.Cost, err = costOf(cost); err != nil {
			return domain.Evaluation{}, false, err
		}
	}
	var r domain.Evaluation
	var rat int64
	err = s.r.QueryRowContext(ctx, `SELECT at, source, provider, model, decision, confidence, reasoning, prompt, raw FROM ai_recordings
		WHERE prompt_hash = ? ORDER BY at DESC LIMIT 1`, promptHash).
		Scan(&rat, &r.Strategy, &r.Provider, &r.Model, &r.Decision, &r.Confidence, &r.Reasoning, &r.Prompt, &r.Raw)
	if errors.Is(err, sql.ErrNoRows) {
		return e, found, nil
	}
	if err != nil {
		return domain.Evaluation{}, false, err
	}
	if r.Time, r.PromptHash = fromMS(rat), promptHash; found && !r.Time.After(e.Time) {
		return e, true, nil
	}
	return r, true, nil
}

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

// AddStrategyVersion implements domain.StrategyStore. The one writer
// connection runs the numbering insert alone, and the primary key refuses
// a number taken by another process sharing the file: the insert is tried
// again with the next number.
func (s *Store) AddStrategyVersion(ctx context.Context, v domain.StrategyVersion) (domain.StrategyVersion, error) {
	if v.Strategy == "" {
		return v, domain.Errorf(domain.EInvalid, "Strategy name is required")
	}
	params, err := configText(v.Params)
	if err != nil {
		return v, err
	}
	for try := 0; ; try++ {
		err = s.w.QueryRowContext(ctx, `INSERT INTO strategy_versions (strategy, version, params, parent, note, created_by, created_at)
			SELECT ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ?, ? FROM strategy_versions WHERE strategy = ?
			RETURNING version`, v.Strategy, params, v.Parent, v.Note, v.CreatedBy, ms(v.CreatedAt), v.Strategy).Scan(&v.Version)
		if err == nil || try == 4 || !strings.Contains(err.Error(), "UNIQUE") {
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

func scanVersion(row interface{ Scan(...any) error }) (domain.StrategyVersion, error) {
	var v domain.StrategyVersion
	var params string
	var at int64
	if err := row.Scan(&v.Strategy, &v.Version, &params, &v.Parent, &v.Note, &v.CreatedBy, &at); err != nil {
		return v, err
	}
	v.Params, v.CreatedAt = json.RawMessage(params), fromMS(at)
	return v, nil
}

// StrategyVersions implements domain.StrategyStore.
func (s *Store) StrategyVersions(ctx context.Context, strategy string) ([]domain.StrategyVersion, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = ? ORDER BY version DESC`, strategy)
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
	v, err := scanVersion(s.r.QueryRowContext(ctx, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = ? AND version = ?`, strategy, version))
	if errors.Is(err, sql.ErrNoRows) {
		return v, domain.Errorf(domain.ENotFound, "Version %d of %s not found", version, strategy)
	}
	return v, err
}

// costText is the stored form of a cost: NULL when unknown.
func costText(c *decimal.Decimal) sql.NullString {
	if c == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: c.String(), Valid: true}
}

func costOf(s sql.NullString) (*decimal.Decimal, error) {
	if !s.Valid {
		return nil, nil
	}
	d, err := decimal.NewFromString(s.String)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// AIUsage implements domain.StrategyStore.
func (s *Store) AIUsage(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT at, strategy, provider, model, input_tokens, output_tokens, cost, 0 AS shadow, id
		FROM strategy_evaluations WHERE provider <> '' AND at >= ? AND at < ?
		UNION ALL SELECT at, strategy, provider, model, input_tokens, output_tokens, cost, 1, id
		FROM shadow_decisions WHERE role = 'shadow' AND provider <> '' AND at >= ? AND at < ?
		ORDER BY 1, 8, 9`, ms(since), ms(until), ms(since), ms(until))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.AIUsage{}
	for rows.Next() {
		var u domain.AIUsage
		var at int64
		var cost sql.NullString
		var id string
		if err := rows.Scan(&at, &u.Strategy, &u.Provider, &u.Model, &u.InputTokens, &u.OutputTokens, &cost, &u.Shadow, &id); err != nil {
			return nil, err
		}
		u.Time = fromMS(at)
		if u.Cost, err = costOf(cost); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
