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

var _ domain.JobStore = (*Store)(nil)

const jobColumns = `id, kind, owner, status, params::text, progress, result_ref, error, cancel_requested, created_at, started_at, finished_at`

// CreateJob implements domain.JobStore.
func (s *Store) CreateJob(ctx context.Context, j domain.Job) error {
	if j.ID == "" || j.Kind == "" || !json.Valid(j.Params) {
		return domain.Errorf(domain.EInvalid, "A job needs an id, a kind and JSON parameters")
	}
	const insert = `INSERT INTO jobs (id, kind, owner, status, params, created_at) VALUES ($1, $2, $3, $4, $5, $6)`
	var err error
	if j.MaxActive > 0 {
		// The owner's lock for the transaction: two submits cannot both
		// count the same jobs and both insert.
		err = s.tx(ctx, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('jobs:' || $1 || ':' || $2, 0))`, j.Kind, j.Owner); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow(ctx, countActiveJobs, j.Kind, j.Owner).Scan(&n); err != nil {
				return err
			}
			if n >= j.MaxActive {
				return &domain.JobQuotaError{Kind: j.Kind, Active: n, Limit: j.MaxActive}
			}
			_, err := tx.Exec(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), j.CreatedAt)
			return err
		})
	} else {
		_, err = s.db.Exec(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), j.CreatedAt)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "Job %s already exists", j.ID)
	}
	return err
}

func scanJob(r pgx.Row) (domain.Job, error) {
	var j domain.Job
	var params string
	if err := r.Scan(&j.ID, &j.Kind, &j.Owner, &j.Status, &params, &j.Progress, &j.ResultRef, &j.Error, &j.CancelRequested,
		&j.CreatedAt, &j.StartedAt, &j.FinishedAt); err != nil {
		return j, err
	}
	j.Params, j.CreatedAt = json.RawMessage(params), j.CreatedAt.UTC()
	for _, t := range []*time.Time{j.StartedAt, j.FinishedAt} {
		if t != nil {
			*t = t.UTC()
		}
	}
	return j, nil
}

// Job implements domain.JobStore.
func (s *Store) Job(ctx context.Context, id string) (domain.Job, error) {
	j, err := scanJob(s.db.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return j, domain.Errorf(domain.ENotFound, "Job not found")
	}
	return j, err
}

// Jobs implements domain.JobStore.
func (s *Store) Jobs(ctx context.Context, kind, status string, limit int) ([]domain.Job, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.Query(ctx, `SELECT `+jobColumns+` FROM jobs WHERE ($1 = '' OR kind = $1) AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, id DESC LIMIT $3`, kind, status, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// ClaimJob implements domain.JobStore.
func (s *Store) ClaimJob(ctx context.Context, id string, at time.Time) (bool, error) {
	tag, err := s.db.Exec(ctx, `UPDATE jobs SET status = $1, started_at = $2 WHERE id = $3 AND status = $4`, domain.JobRunning, at, id, domain.JobQueued)
	return err == nil && tag.RowsAffected() == 1, err
}

// SetJobProgress implements domain.JobStore.
func (s *Store) SetJobProgress(ctx context.Context, id string, progress float64) error {
	_, err := s.db.Exec(ctx, `UPDATE jobs SET progress = $1 WHERE id = $2 AND status = $3`, progress, id, domain.JobRunning)
	return err
}

// FinishJob implements domain.JobStore.
func (s *Store) FinishJob(ctx context.Context, id, status, resultRef, reason string, at time.Time, notify *domain.NotifyEvent) (bool, error) {
	if !domain.JobDone(status) {
		return false, domain.Errorf(domain.EInvalid, "Job status %q is not final", status)
	}
	var moved bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE jobs SET status = $1, result_ref = $2, error = $3, finished_at = $4,
			progress = CASE WHEN $1 = 'completed' THEN 1 ELSE progress END
			WHERE id = $5 AND status IN ($6, $7)`, status, resultRef, reason, at, id, domain.JobQueued, domain.JobRunning)
		if moved = err == nil && tag.RowsAffected() == 1; !moved || notify == nil {
			return err
		}
		_, err = tx.Exec(ctx, insertNotifyEvent, notify.ID, notify.Type, notify.Severity, notify.Owner, notify.OrderID, string(notify.Payload), notify.CreatedAt)
		return err
	})
	return moved && err == nil, err
}

// CancelJob implements domain.JobStore.
func (s *Store) CancelJob(ctx context.Context, id, reason string, at time.Time) (domain.Job, error) {
	j, err := scanJob(s.db.QueryRow(ctx, `UPDATE jobs SET
		status = CASE WHEN status = $1 THEN $2 ELSE status END,
		error = CASE WHEN status = $1 OR (status = $5 AND NOT cancel_requested) THEN $3 ELSE error END,
		finished_at = CASE WHEN status = $1 THEN $4 ELSE finished_at END,
		cancel_requested = cancel_requested OR status = $5
		WHERE id = $6 RETURNING `+jobColumns, domain.JobQueued, domain.JobCancelled, reason, at, domain.JobRunning, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return j, domain.Errorf(domain.ENotFound, "Job not found")
	}
	return j, err
}
