package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"kestrel/domain"
)

var _ domain.JobStore = (*Store)(nil)

const jobColumns = `id, kind, owner, status, params, progress, result_ref, error, cancel_requested, created_at, started_at, finished_at`

// CreateJob implements domain.JobStore.
func (s *Store) CreateJob(ctx context.Context, j domain.Job) error {
	if j.ID == "" || j.Kind == "" || !json.Valid(j.Params) {
		return domain.Errorf(domain.EInvalid, "A job needs an id, a kind and JSON parameters")
	}
	const insert = `INSERT INTO jobs (id, kind, owner, status, params, created_at) VALUES (?, ?, ?, ?, ?, ?)`
	var err error
	if j.MaxActive > 0 {
		// One writer at a time: the count and the insert see the same jobs.
		err = s.tx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, countActiveJobs, j.Kind, j.Owner).Scan(&n); err != nil {
				return err
			}
			if n >= j.MaxActive {
				return &domain.JobQuotaError{Kind: j.Kind, Active: n, Limit: j.MaxActive}
			}
			_, err := tx.ExecContext(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), ms(j.CreatedAt))
			return err
		})
	} else {
		_, err = s.w.ExecContext(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), ms(j.CreatedAt))
	}
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "Job %s already exists", j.ID)
	}
	return err
}

type scanner interface{ Scan(dest ...any) error }

func scanJob(r scanner) (domain.Job, error) {
	var j domain.Job
	var params string
	var cancel int
	var created int64
	var started, finished sql.NullInt64
	if err := r.Scan(&j.ID, &j.Kind, &j.Owner, &j.Status, &params, &j.Progress, &j.ResultRef, &j.Error, &cancel, &created, &started, &finished); err != nil {
		return j, err
	}
	j.Params, j.CancelRequested, j.CreatedAt = json.RawMessage(params), cancel != 0, fromMS(created)
	if started.Valid {
		t := fromMS(started.Int64)
		j.StartedAt = &t
	}
	if finished.Valid {
		t := fromMS(finished.Int64)
		j.FinishedAt = &t
	}
	return j, nil
}

// Job implements domain.JobStore.
func (s *Store) Job(ctx context.Context, id string) (domain.Job, error) {
	j, err := scanJob(s.r.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return j, domain.Errorf(domain.ENotFound, "Job not found")
	}
	return j, err
}

// Jobs implements domain.JobStore.
func (s *Store) Jobs(ctx context.Context, kind, status string, limit int) ([]domain.Job, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE (? = '' OR kind = ?) AND (? = '' OR status = ?)
		ORDER BY created_at DESC, id DESC LIMIT ?`, kind, kind, status, status, limit)
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
	res, err := s.w.ExecContext(ctx, `UPDATE jobs SET status = ?, started_at = ? WHERE id = ? AND status = ?`, domain.JobRunning, ms(at), id, domain.JobQueued)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetJobProgress implements domain.JobStore.
func (s *Store) SetJobProgress(ctx context.Context, id string, progress float64) error {
	_, err := s.w.ExecContext(ctx, `UPDATE jobs SET progress = ? WHERE id = ? AND status = ?`, progress, id, domain.JobRunning)
	return err
}

// FinishJob implements domain.JobStore.
func (s *Store) FinishJob(ctx context.Context, id, status, resultRef, reason string, at time.Time, notify *domain.NotifyEvent) (bool, error) {
	if !domain.JobDone(status) {
		return false, domain.Errorf(domain.EInvalid, "Job status %q is not final", status)
	}
	progress := `progress`
	if status == domain.JobCompleted {
		progress = `1`
	}
	var moved bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE jobs SET status = ?, result_ref = ?, error = ?, finished_at = ?, progress = `+progress+`
			WHERE id = ? AND status IN (?, ?)`, status, resultRef, reason, ms(at), id, domain.JobQueued, domain.JobRunning)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if moved = n == 1; err != nil || !moved || notify == nil {
			return err
		}
		_, err = tx.ExecContext(ctx, insertNotifyEvent, notify.ID, notify.Type, notify.Severity, notify.Owner, notify.OrderID, string(notify.Payload), ms(notify.CreatedAt))
		return err
	})
	return moved && err == nil, err
}

// CancelJob implements domain.JobStore.
func (s *Store) CancelJob(ctx context.Context, id, reason string, at time.Time) (domain.Job, error) {
	if _, err := s.w.ExecContext(ctx, `UPDATE jobs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = ?`,
		domain.JobCancelled, reason, ms(at), id, domain.JobQueued); err != nil {
		return domain.Job{}, err
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE jobs SET cancel_requested = 1, error = ? WHERE id = ? AND status = ? AND cancel_requested = 0`, reason, id, domain.JobRunning); err != nil {
		return domain.Job{}, err
	}
	return s.Job(ctx, id)
}
