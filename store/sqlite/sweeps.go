package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"kestrel/domain"
)

var _ domain.SweepStore = (*Store)(nil)

// SaveSweepTrial implements domain.SweepStore.
func (s *Store) SaveSweepTrial(ctx context.Context, t domain.SweepTrial) error {
	if t.SweepID == "" || !json.Valid(t.Values) || !json.Valid(t.Params) || !json.Valid(t.Metrics) {
		return domain.Errorf(domain.EInvalid, "A sweep trial needs its sweep and JSON values, parameters and metrics")
	}
	var score sql.NullFloat64
	if t.Score != nil {
		score = sql.NullFloat64{Float64: *t.Score, Valid: true}
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO sweep_trials (sweep_id, trial, vals, params, metrics, score, trades, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		t.SweepID, t.Index, string(t.Values), string(t.Params), string(t.Metrics), score, t.Trades, ms(t.CreatedAt))
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "Trial %d of sweep %s is already stored", t.Index, t.SweepID)
	}
	return err
}

// SweepTrials implements domain.SweepStore.
func (s *Store) SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT trial, vals, params, metrics, score, trades, finished_at FROM sweep_trials WHERE sweep_id = ? ORDER BY trial`, sweepID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.SweepTrial{}
	for rows.Next() {
		t := domain.SweepTrial{SweepID: sweepID}
		var vals, params, metrics string
		var score sql.NullFloat64
		var at int64
		if err := rows.Scan(&t.Index, &vals, &params, &metrics, &score, &t.Trades, &at); err != nil {
			return nil, err
		}
		t.Values, t.Params, t.Metrics, t.CreatedAt = json.RawMessage(vals), json.RawMessage(params), json.RawMessage(metrics), fromMS(at)
		if score.Valid {
			v := score.Float64
			t.Score = &v
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
