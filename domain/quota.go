package domain

import (
	"context"
	"fmt"
	"time"
)

// Backtest report sources: a job's (POST /api/backtests) or the spec's GET
// form run in the request, whose history is kept short (BacktestRecord.Keep).
const (
	BacktestFromJob     = "job"
	BacktestFromRequest = "request"
)

// JobQuotaError is CreateJob's refusal of a job whose owner already has
// Job.MaxActive jobs of its kind queued or running.
type JobQuotaError struct {
	Kind   string
	Active int
	Limit  int
}

func (e *JobQuotaError) Error() string {
	return fmt.Sprintf("%d %s jobs queued or running; the limit is %d", e.Active, e.Kind, e.Limit)
}

// QuotaStore counts what a user keeps, for the per-user quotas.
type QuotaStore interface {
	// CountBacktests counts the stored backtest reports of owner from
	// source (BacktestFromJob, BacktestFromRequest; "": any).
	CountBacktests(ctx context.Context, owner, source string) (int, error)
	// CountActiveJobs counts owner's jobs of kind queued or running.
	CountActiveJobs(ctx context.Context, kind, owner string) (int, error)
	// DeleteBacktest deletes a stored report and the finished job that
	// made it, if any; not_found when no report has the id.
	DeleteBacktest(ctx context.Context, id string) error
}

// RetentionStore deletes what is older than its retention; each returns
// how many rows it removed. Nothing pending or running is ever deleted.
type RetentionStore interface {
	// PruneBacktests deletes backtest reports created before the time, and
	// the finished backtest jobs that made them.
	PruneBacktests(ctx context.Context, before time.Time) (int64, error)
	// PruneJobs deletes finished jobs of kind (a sweep's trials with it)
	// that finished before the time.
	PruneJobs(ctx context.Context, kind string, before time.Time) (int64, error)
	// PruneDeliveries deletes notification deliveries that were delivered
	// or failed before the time (pending ones stay).
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
	// PruneAudit deletes audit log entries written before the time.
	PruneAudit(ctx context.Context, before time.Time) (int64, error)
}
