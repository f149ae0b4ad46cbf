package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

const countActiveJobs = `SELECT count(*) FROM jobs WHERE kind = $1 AND owner = $2 AND status IN ('queued', 'running')`

// finished is the statuses of jobs that have ended.
const finished = `('completed', 'failed', 'cancelled')`

// CountBacktests implements domain.QuotaStore.
func (c *Core) CountBacktests(ctx context.Context, owner, source string) (int, error) {
	var n int
	err := c.r.QueryRow(ctx, `SELECT count(*) FROM backtests WHERE owner = $1 AND ($2 = '' OR source = $2)`, owner, source).Scan(&n)
	return n, err
}

// CountActiveJobs implements domain.QuotaStore.
func (c *Core) CountActiveJobs(ctx context.Context, kind, owner string) (int, error) {
	var n int
	err := c.r.QueryRow(ctx, countActiveJobs, kind, owner).Scan(&n)
	return n, err
}

// DeleteBacktest implements domain.QuotaStore.
func (c *Core) DeleteBacktest(ctx context.Context, id string) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		if err := execOneOn(ctx, tx, "Backtest not found", `DELETE FROM backtests WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM jobs WHERE id = $1 AND kind = 'backtest' AND status IN `+finished, id)
		return err
	})
}

// PruneBacktests implements domain.RetentionStore.
func (c *Core) PruneBacktests(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := c.w.Tx(ctx, func(tx Querier) error {
		var err error
		if n, err = tx.Exec(ctx, `DELETE FROM backtests WHERE created_at < $1`, c.d.Time(before)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM jobs WHERE kind = 'backtest' AND status IN `+finished+` AND finished_at < $1`, c.d.Time(before))
		return err
	})
	return n, err
}

// PruneJobs implements domain.RetentionStore.
func (c *Core) PruneJobs(ctx context.Context, kind string, before time.Time) (int64, error) {
	var n int64
	err := c.w.Tx(ctx, func(tx Querier) error {
		const old = `SELECT id FROM jobs WHERE kind = $1 AND status IN ` + finished + ` AND finished_at < $2`
		if _, err := tx.Exec(ctx, `DELETE FROM sweep_trials WHERE sweep_id IN (`+old+`)`, kind, c.d.Time(before)); err != nil {
			return err
		}
		var err error
		n, err = tx.Exec(ctx, `DELETE FROM jobs WHERE id IN (`+old+`)`, kind, c.d.Time(before))
		return err
	})
	return n, err
}

// PruneDeliveries implements domain.RetentionStore.
func (c *Core) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM notify_outbox WHERE status IN ($1, $2) AND created_at < $3`, domain.NotifyDelivered, domain.NotifyFailed, c.d.Time(before))
}

// PruneAudit implements domain.RetentionStore.
func (c *Core) PruneAudit(ctx context.Context, before time.Time) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM audit_log WHERE at < $1`, c.d.Time(before))
}
