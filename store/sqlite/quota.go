package sqlite

import (
	"context"
	"database/sql"
	"time"

	"kestrel/domain"
)

var (
	_ domain.QuotaStore     = (*Store)(nil)
	_ domain.RetentionStore = (*Store)(nil)
)

const countActiveJobs = `SELECT count(*) FROM jobs WHERE kind = ? AND owner = ? AND status IN ('queued', 'running')`

// CountBacktests implements domain.QuotaStore.
func (s *Store) CountBacktests(ctx context.Context, owner, source string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM backtests WHERE owner = ? AND (? = '' OR source = ?)`, owner, source, source).Scan(&n)
	return n, err
}

// CountActiveJobs implements domain.QuotaStore.
func (s *Store) CountActiveJobs(ctx context.Context, kind, owner string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, countActiveJobs, kind, owner).Scan(&n)
	return n, err
}

// DeleteBacktest implements domain.QuotaStore.
func (s *Store) DeleteBacktest(ctx context.Context, id string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM backtests WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = domain.Errorf(domain.ENotFound, "Backtest not found")
			}
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM jobs WHERE id = ? AND kind = 'backtest' AND status IN ('completed', 'failed', 'cancelled')`, id)
		return err
	})
}

// PruneBacktests implements domain.RetentionStore.
func (s *Store) PruneBacktests(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM backtests WHERE created_at < ?`, ms(before))
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM jobs WHERE kind = 'backtest' AND status IN ('completed', 'failed', 'cancelled') AND finished_at < ?`, ms(before))
		return err
	})
	return n, err
}

// PruneJobs implements domain.RetentionStore.
func (s *Store) PruneJobs(ctx context.Context, kind string, before time.Time) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		const old = `SELECT id FROM jobs WHERE kind = ? AND status IN ('completed', 'failed', 'cancelled') AND finished_at < ?`
		if _, err := tx.ExecContext(ctx, `DELETE FROM sweep_trials WHERE sweep_id IN (`+old+`)`, kind, ms(before)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE id IN (`+old+`)`, kind, ms(before))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// PruneDeliveries implements domain.RetentionStore.
func (s *Store) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM notify_outbox WHERE status IN (?, ?) AND created_at < ?`, domain.NotifyDelivered, domain.NotifyFailed, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// PruneAudit implements domain.RetentionStore.
func (s *Store) PruneAudit(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM audit_log WHERE at < ?`, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
