package sqlcore

import (
	"context"
	"encoding/json"

	"kestrel/domain"
)

// SaveSweepTrial implements domain.SweepStore.
func (c *Core) SaveSweepTrial(ctx context.Context, t domain.SweepTrial) error {
	if t.SweepID == "" || !json.Valid(t.Values) || !json.Valid(t.Params) || !json.Valid(t.Metrics) {
		return domain.Errorf(domain.EInvalid, "A sweep trial needs its sweep and JSON values, parameters and metrics")
	}
	_, err := c.w.Exec(ctx, `INSERT INTO sweep_trials (sweep_id, trial, vals, params, metrics, score, trades, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		t.SweepID, t.Index, string(t.Values), string(t.Params), string(t.Metrics), t.Score, t.Trades, c.d.Time(t.CreatedAt))
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "Trial %d of sweep %s is already stored", t.Index, t.SweepID)
	}
	return err
}

// SweepTrials implements domain.SweepStore.
func (c *Core) SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error) {
	rows, err := c.r.Query(ctx, `SELECT trial, CAST(vals AS TEXT), CAST(params AS TEXT), CAST(metrics AS TEXT), score, trades, finished_at
		FROM sweep_trials WHERE sweep_id = $1 ORDER BY trial`, sweepID)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.SweepTrial{}, func(r Row) (domain.SweepTrial, error) {
		t := domain.SweepTrial{SweepID: sweepID}
		var vals, params, metrics string
		if err := r.Scan(&t.Index, &vals, &params, &metrics, &t.Score, &t.Trades, c.d.TimeDest(&t.CreatedAt)); err != nil {
			return t, err
		}
		t.Values, t.Params, t.Metrics, t.CreatedAt = json.RawMessage(vals), json.RawMessage(params), json.RawMessage(metrics), utc(t.CreatedAt)
		return t, nil
	})
}
