package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

var _ domain.SweepStore = (*Store)(nil)

// SaveSweepTrial implements domain.SweepStore.
func (s *Store) SaveSweepTrial(ctx context.Context, t domain.SweepTrial) error {
	if t.SweepID == "" || !json.Valid(t.Values) || !json.Valid(t.Params) || !json.Valid(t.Metrics) {
		return domain.Errorf(domain.EInvalid, "A sweep trial needs its sweep and JSON values, parameters and metrics")
	}
	_, err := s.db.Exec(ctx, `INSERT INTO sweep_trials (sweep_id, trial, vals, params, metrics, score, trades, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		t.SweepID, t.Index, string(t.Values), string(t.Params), string(t.Metrics), t.Score, t.Trades, t.CreatedAt)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "Trial %d of sweep %s is already stored", t.Index, t.SweepID)
	}
	return err
}

// SweepTrials implements domain.SweepStore.
func (s *Store) SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error) {
	rows, err := s.db.Query(ctx, `SELECT trial, vals::text, params::text, metrics::text, score, trades, finished_at FROM sweep_trials WHERE sweep_id = $1 ORDER BY trial`, sweepID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.SweepTrial{}
	for rows.Next() {
		t := domain.SweepTrial{SweepID: sweepID}
		var vals, params, metrics string
		if err := rows.Scan(&t.Index, &vals, &params, &metrics, &t.Score, &t.Trades, &t.CreatedAt); err != nil {
			return nil, err
		}
		t.Values, t.Params, t.Metrics, t.CreatedAt = json.RawMessage(vals), json.RawMessage(params), json.RawMessage(metrics), t.CreatedAt.UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}
