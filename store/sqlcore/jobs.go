package sqlcore

import (
	"context"
	"encoding/json"
	"time"

	"kestrel/domain"
)

const jobColumns = `id, kind, owner, status, CAST(params AS TEXT), progress, result_ref, error, cancel_requested, created_at, started_at, finished_at`

// CreateJob implements domain.JobStore.
func (c *Core) CreateJob(ctx context.Context, j domain.Job) error {
	if j.ID == "" || j.Kind == "" || !json.Valid(j.Params) {
		return domain.Errorf(domain.EInvalid, "A job needs an id, a kind and JSON parameters")
	}
	const insert = `INSERT INTO jobs (id, kind, owner, status, params, created_at) VALUES ($1, $2, $3, $4, $5, $6)`
	var err error
	if j.MaxActive > 0 {
		// The owner's lock for the transaction: two submits cannot both
		// count the same jobs and both insert.
		err = c.w.Tx(ctx, func(tx Querier) error {
			if err := c.d.Lock(ctx, tx, "jobs:"+j.Kind+":"+j.Owner); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow(ctx, countActiveJobs, j.Kind, j.Owner).Scan(&n); err != nil {
				return err
			}
			if n >= j.MaxActive {
				return &domain.JobQuotaError{Kind: j.Kind, Active: n, Limit: j.MaxActive}
			}
			_, err := tx.Exec(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), c.d.Time(j.CreatedAt))
			return err
		})
	} else {
		_, err = c.w.Exec(ctx, insert, j.ID, j.Kind, j.Owner, domain.JobQueued, string(j.Params), c.d.Time(j.CreatedAt))
	}
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "Job %s already exists", j.ID)
	}
	return err
}

func (c *Core) scanJob(r Row) (domain.Job, error) {
	var j domain.Job
	var params string
	if err := r.Scan(&j.ID, &j.Kind, &j.Owner, &j.Status, &params, &j.Progress, &j.ResultRef, &j.Error, &j.CancelRequested,
		c.d.TimeDest(&j.CreatedAt), c.d.NullTimeDest(&j.StartedAt), c.d.NullTimeDest(&j.FinishedAt)); err != nil {
		return j, c.notFound(err, "Job not found")
	}
	j.Params, j.CreatedAt, j.StartedAt, j.FinishedAt = json.RawMessage(params), utc(j.CreatedAt), utcPtr(j.StartedAt), utcPtr(j.FinishedAt)
	return j, nil
}

// Job implements domain.JobStore.
func (c *Core) Job(ctx context.Context, id string) (domain.Job, error) {
	return c.scanJob(c.r.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = $1`, id))
}

// Jobs implements domain.JobStore.
func (c *Core) Jobs(ctx context.Context, kind, status string, limit int) ([]domain.Job, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := c.r.Query(ctx, `SELECT `+jobColumns+` FROM jobs WHERE ($1 = '' OR kind = $1) AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, id DESC LIMIT $3`, kind, status, limit)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.Job{}, c.scanJob)
}

// ClaimJob implements domain.JobStore.
func (c *Core) ClaimJob(ctx context.Context, id string, at time.Time) (bool, error) {
	n, err := c.w.Exec(ctx, `UPDATE jobs SET status = $1, started_at = $2 WHERE id = $3 AND status = $4`, domain.JobRunning, c.d.Time(at), id, domain.JobQueued)
	return err == nil && n == 1, err
}

// SetJobProgress implements domain.JobStore.
func (c *Core) SetJobProgress(ctx context.Context, id string, progress float64) error {
	_, err := c.w.Exec(ctx, `UPDATE jobs SET progress = $1 WHERE id = $2 AND status = $3`, progress, id, domain.JobRunning)
	return err
}

// FinishJob implements domain.JobStore.
func (c *Core) FinishJob(ctx context.Context, id, status, resultRef, reason string, at time.Time, notify *domain.NotifyEvent) (bool, error) {
	if !domain.JobDone(status) {
		return false, domain.Errorf(domain.EInvalid, "Job status %q is not final", status)
	}
	progress := `progress`
	if status == domain.JobCompleted {
		progress = `1`
	}
	var moved bool
	err := c.w.Tx(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE jobs SET status = $1, result_ref = $2, error = $3, finished_at = $4, progress = `+progress+`
			WHERE id = $5 AND status IN ($6, $7)`, status, resultRef, reason, c.d.Time(at), id, domain.JobQueued, domain.JobRunning)
		if moved = err == nil && n == 1; !moved || notify == nil {
			return err
		}
		return c.insertNotify(ctx, tx, *notify)
	})
	return moved && err == nil, err
}

// CancelJob implements domain.JobStore: a queued job ends cancelled, a
// running one is asked to stop, in one statement.
func (c *Core) CancelJob(ctx context.Context, id, reason string, at time.Time) (domain.Job, error) {
	return c.scanJob(c.w.QueryRow(ctx, `UPDATE jobs SET
		status = CASE WHEN status = $1 THEN $2 ELSE status END,
		error = CASE WHEN status = $1 OR (status = $5 AND NOT cancel_requested) THEN $3 ELSE error END,
		finished_at = CASE WHEN status = $1 THEN $4 ELSE finished_at END,
		cancel_requested = cancel_requested OR status = $5
		WHERE id = $6 RETURNING `+jobColumns, domain.JobQueued, domain.JobCancelled, reason, c.d.Time(at), domain.JobRunning, id))
}
