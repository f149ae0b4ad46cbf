package sqlcore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kestrel/domain"
)

const evaluationCols = `id, at, strategy, symbol, candle_time, decision, confidence, reasoning, indicators, executed,
	reason, order_id, provider, model, latency_ms, prompt_hash, prompt, raw, error, strategy_version, template_version,
	input_tokens, output_tokens, cost`

// configText is the stored form of a strategy's configuration: {} when
// empty, the document itself when it is valid JSON. PostgreSQL's jsonb keeps
// its meaning, not its bytes (key order and spacing are normalised).
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
func (c *Core) SaveStrategy(ctx context.Context, st domain.StrategyRecord) error {
	if st.Name == "" {
		return domain.Errorf(domain.EInvalid, "Strategy name is required")
	}
	cfg, err := configText(st.Config)
	if err != nil {
		return err
	}
	_, err = c.w.Exec(ctx, `INSERT INTO strategies (name, type, enabled, config, active_version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (name) DO UPDATE SET type = excluded.type, enabled = excluded.enabled, config = excluded.config,
		active_version = excluded.active_version, updated_at = excluded.updated_at`,
		st.Name, st.Type, st.Enabled, cfg, st.ActiveVersion, c.d.Time(st.CreatedAt), c.d.Time(st.UpdatedAt))
	return err
}

// Strategies implements domain.StrategyStore.
func (c *Core) Strategies(ctx context.Context) ([]domain.StrategyRecord, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.StrategyRecord, error) {
		var st domain.StrategyRecord
		var cfg []byte
		err := r.Scan(&st.Name, &st.Type, &st.Enabled, &cfg, &st.ActiveVersion, c.d.TimeDest(&st.CreatedAt), c.d.TimeDest(&st.UpdatedAt))
		st.Config, st.CreatedAt, st.UpdatedAt = json.RawMessage(cfg), utc(st.CreatedAt), utc(st.UpdatedAt)
		return st, err
	}, `SELECT name, type, enabled, config, active_version, created_at, updated_at FROM strategies ORDER BY name`)
}

// AppendEvaluation implements domain.StrategyStore.
func (c *Core) AppendEvaluation(ctx context.Context, e domain.Evaluation) error {
	if e.ID == "" {
		return domain.Errorf(domain.EInvalid, "Evaluation id is required")
	}
	ind, err := indicatorsText(e.Indicators)
	if err != nil {
		return err
	}
	_, err = c.w.Exec(ctx, `INSERT INTO strategy_evaluations (`+evaluationCols+`, account)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`,
		e.ID, c.d.Time(e.Time), e.Strategy, e.Symbol, c.d.Time(e.CandleTime), e.Decision, e.Confidence, e.Reasoning, ind, e.Executed,
		e.Reason, e.OrderID, e.Provider, e.Model, e.LatencyMS, e.PromptHash, e.Prompt, e.Raw, e.Error, e.StrategyVersion, e.TemplateVersion,
		e.InputTokens, e.OutputTokens, DecimalText(e.Cost), e.Account)
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "Evaluation %s is already stored", e.ID)
	}
	return err
}

// scanEvaluation reads evaluationCols, then extra.
func (c *Core) scanEvaluation(r Row, extra ...any) (domain.Evaluation, error) {
	var e domain.Evaluation
	var ind []byte
	var cost *string
	err := r.Scan(append([]any{&e.ID, c.d.TimeDest(&e.Time), &e.Strategy, &e.Symbol, c.d.TimeDest(&e.CandleTime), &e.Decision, &e.Confidence, &e.Reasoning, &ind, &e.Executed,
		&e.Reason, &e.OrderID, &e.Provider, &e.Model, &e.LatencyMS, &e.PromptHash, &e.Prompt, &e.Raw, &e.Error, &e.StrategyVersion, &e.TemplateVersion,
		&e.InputTokens, &e.OutputTokens, &cost}, extra...)...)
	if err != nil {
		return e, err
	}
	e.Time, e.CandleTime = utc(e.Time), utc(e.CandleTime)
	if e.Cost, err = DecimalOf(cost); err != nil {
		return e, err
	}
	return e, indicatorsInto(&e.Indicators, ind)
}

// Evaluations implements domain.StrategyStore.
func (c *Core) Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error) {
	a := args{f.Account}
	q := `SELECT ` + evaluationCols + `, account FROM strategy_evaluations WHERE account = $1`
	if f.Strategy != "" {
		q += ` AND strategy = ` + a.add(f.Strategy)
	}
	if f.Symbol != "" {
		q += ` AND symbol = ` + a.add(f.Symbol)
	}
	if f.Executed != nil {
		q += ` AND executed = ` + a.add(*f.Executed)
	}
	if !f.Since.IsZero() {
		q += ` AND at >= ` + a.add(c.d.Time(f.Since))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q += ` ORDER BY at DESC, id DESC LIMIT ` + a.add(f.Limit)
	return queryAll(ctx, c.r, func(r Row) (domain.Evaluation, error) {
		var account string
		e, err := c.scanEvaluation(r, &account)
		e.Account = account
		return e, err
	}, q, a...)
}

// PruneEvaluations implements domain.StrategyStore.
func (c *Core) PruneEvaluations(ctx context.Context, before time.Time) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM strategy_evaluations WHERE at < $1`, c.d.Time(before))
}

// RecordedDecision implements domain.StrategyStore. Only an AI-driven
// instance's evaluation holds the model's own answer (a hybrid's is the
// combined decision): other answers come from the recordings.
func (c *Core) RecordedDecision(ctx context.Context, promptHash string) (domain.Evaluation, bool, error) {
	if promptHash == "" {
		return domain.Evaluation{}, false, nil
	}
	e, err := c.scanEvaluation(c.r.QueryRow(ctx, `SELECT `+evaluationCols+` FROM strategy_evaluations
		WHERE prompt_hash = $1 AND error = '' AND decision <> ''
		  AND strategy IN (SELECT name FROM strategies WHERE type = 'ai_driven') ORDER BY at DESC, id DESC LIMIT 1`, promptHash))
	found := err == nil
	if err != nil && !c.d.NoRows(err) {
		return domain.Evaluation{}, false, err
	}
	var r domain.Evaluation
	err = c.r.QueryRow(ctx, `SELECT at, source, provider, model, decision, confidence, reasoning, prompt, raw FROM ai_recordings
		WHERE prompt_hash = $1 ORDER BY at DESC LIMIT 1`, promptHash).
		Scan(c.d.TimeDest(&r.Time), &r.Strategy, &r.Provider, &r.Model, &r.Decision, &r.Confidence, &r.Reasoning, &r.Prompt, &r.Raw)
	if err != nil && c.d.NoRows(err) {
		return e, found, nil
	}
	if err != nil {
		return domain.Evaluation{}, false, err
	}
	if r.Time, r.PromptHash = utc(r.Time), promptHash; found && !r.Time.After(e.Time) {
		return e, true, nil
	}
	return r, true, nil
}

// AddStrategyVersion implements domain.StrategyStore. Two saves at once
// (two instances, or two processes sharing a SQLite file) may both read the
// same highest number; the primary key refuses the second, which is tried
// again with the next number.
func (c *Core) AddStrategyVersion(ctx context.Context, v domain.StrategyVersion) (domain.StrategyVersion, error) {
	if v.Strategy == "" {
		return v, domain.Errorf(domain.EInvalid, "Strategy name is required")
	}
	params, err := configText(v.Params)
	if err != nil {
		return v, err
	}
	for try := 0; ; try++ {
		err = c.w.QueryRow(ctx, `INSERT INTO strategy_versions (strategy, version, params, parent, note, created_by, created_at)
			SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6 FROM strategy_versions WHERE strategy = $1
			RETURNING version`, v.Strategy, params, v.Parent, v.Note, v.CreatedBy, c.d.Time(v.CreatedAt)).Scan(&v.Version)
		if err == nil || try == 9 || !c.d.Unique(err) {
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

func (c *Core) scanVersion(row Row) (domain.StrategyVersion, error) {
	var v domain.StrategyVersion
	var params []byte
	if err := row.Scan(&v.Strategy, &v.Version, &params, &v.Parent, &v.Note, &v.CreatedBy, c.d.TimeDest(&v.CreatedAt)); err != nil {
		return v, err
	}
	v.Params, v.CreatedAt = json.RawMessage(params), utc(v.CreatedAt)
	return v, nil
}

// StrategyVersions implements domain.StrategyStore.
func (c *Core) StrategyVersions(ctx context.Context, strategy string) ([]domain.StrategyVersion, error) {
	return queryAll(ctx, c.r, c.scanVersion, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = $1 ORDER BY version DESC`, strategy)
}

// StrategyVersion implements domain.StrategyStore.
func (c *Core) StrategyVersion(ctx context.Context, strategy string, version int) (domain.StrategyVersion, error) {
	v, err := c.scanVersion(c.r.QueryRow(ctx, `SELECT `+versionCols+` FROM strategy_versions WHERE strategy = $1 AND version = $2`, strategy, version))
	return v, c.notFound(err, fmt.Sprintf("Version %d of %s not found", version, strategy))
}

// AIUsage implements domain.StrategyStore.
func (c *Core) AIUsage(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.AIUsage, error) {
		var u domain.AIUsage
		var cost *string
		var id string
		err := r.Scan(c.d.TimeDest(&u.Time), &u.Strategy, &u.Provider, &u.Model, &u.InputTokens, &u.OutputTokens, &cost, &u.Shadow, &id)
		if err != nil {
			return u, err
		}
		u.Time = utc(u.Time)
		u.Cost, err = DecimalOf(cost)
		return u, err
	}, `SELECT at, strategy, provider, model, input_tokens, output_tokens, cost, false AS shadow, id
		FROM strategy_evaluations WHERE provider <> '' AND at >= $1 AND at < $2
		UNION ALL SELECT at, strategy, provider, model, input_tokens, output_tokens, cost, true, id
		FROM shadow_decisions WHERE role = 'shadow' AND provider <> '' AND at >= $1 AND at < $2
		ORDER BY 1, 8, 9`, c.d.Time(since), c.d.Time(until))
}

// recordingBatch is how many recordings one INSERT carries (10 parameters
// each, well under SQLite's limit of parameters).
const recordingBatch = 500

// SaveAIRecordings implements domain.StrategyStore: one multi-row INSERT
// (a single round trip) per batch, and every batch in one transaction when
// there are several. Callers save one recording at a time today.
func (c *Core) SaveAIRecordings(ctx context.Context, rs []domain.AIRecording) error {
	for _, r := range rs {
		if r.PromptHash == "" || r.Decision == "" {
			return domain.Errorf(domain.EInvalid, "An AI recording needs a prompt hash and a decision")
		}
	}
	insert := func(ctx context.Context, q Querier, rs []domain.AIRecording) error {
		var a args
		sql := `INSERT INTO ai_recordings (prompt_hash, at, source, provider, model, decision, confidence, reasoning, prompt, raw) VALUES `
		for i, r := range rs {
			if i > 0 {
				sql += ", "
			}
			sql += "(" + a.add(r.PromptHash) + ", " + a.add(c.d.Time(r.At)) + ", " + a.add(r.Source) + ", " + a.add(r.Provider) + ", " +
				a.add(r.Model) + ", " + a.add(r.Decision) + ", " + a.add(r.Confidence) + ", " + a.add(r.Reasoning) + ", " + a.add(r.Prompt) + ", " + a.add(r.Raw) + ")"
		}
		_, err := q.Exec(ctx, sql, a...)
		return err
	}
	switch {
	case len(rs) == 0:
		return nil
	case len(rs) <= recordingBatch:
		return insert(ctx, c.w, rs)
	}
	return c.w.Tx(ctx, func(tx Querier) error {
		for i := 0; i < len(rs); i += recordingBatch {
			if err := insert(ctx, tx, rs[i:min(i+recordingBatch, len(rs))]); err != nil {
				return err
			}
		}
		return nil
	})
}
