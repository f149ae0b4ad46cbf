package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

var (
	_ domain.QuotaStore     = (*Store)(nil)
	_ domain.RetentionStore = (*Store)(nil)
)

const countActiveJobs = `SELECT count(*) FROM jobs WHERE kind = $1 AND owner = $2 AND status IN ('queued', 'running')`

// CountBacktests implements domain.QuotaStore.
func (s *Store) CountBacktests(ctx context.Context, owner, source string) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT count(*) FROM backtests WHERE owner = $1 AND ($2 = '' OR source = $2)`, owner, source).Scan(&n)
	return n, err
}

// CountActiveJobs implements domain.QuotaStore.
func (s *Store) CountActiveJobs(ctx context.Context, kind, owner string) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, countActiveJobs, kind, owner).Scan(&n)
	return n, err
}

// DeleteBacktest implements domain.QuotaStore.
func (s *Store) DeleteBacktest(ctx context.Context, id string) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM backtests WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return domain.Errorf(domain.ENotFound, "Backtest not found")
		}
		_, err = tx.Exec(ctx, `DELETE FROM jobs WHERE id = $1 AND kind = 'backtest' AND status IN ('completed', 'failed', 'cancelled')`, id)
		return err
	})
}

// PruneBacktests implements domain.RetentionStore.
func (s *Store) PruneBacktests(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM backtests WHERE created_at < $1`, before)
		if err != nil {
			return err
		}
		n = tag.RowsAffected()
		_, err = tx.Exec(ctx, `DELETE FROM jobs WHERE kind = 'backtest' AND status IN ('completed', 'failed', 'cancelled') AND finished_at < $1`, before)
		return err
	})
	return n, err
}

// PruneJobs implements domain.RetentionStore.
func (s *Store) PruneJobs(ctx context.Context, kind string, before time.Time) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx pgx.Tx) error {
		const old = `SELECT id FROM jobs WHERE kind = $1 AND status IN ('completed', 'failed', 'cancelled') AND finished_at < $2`
		if _, err := tx.Exec(ctx, `DELETE FROM sweep_trials WHERE sweep_id IN (`+old+`)`, kind, before); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM jobs WHERE id IN (`+old+`)`, kind, before)
		if err != nil {
			return err
		}
		n = tag.RowsAffected()
		return nil
	})
	return n, err
}

// PruneDeliveries implements domain.RetentionStore.
func (s *Store) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM notify_outbox WHERE status IN ($1, $2) AND created_at < $3`, domain.NotifyDelivered, domain.NotifyFailed, before)
	return tag.RowsAffected(), err
}

// PruneAudit implements domain.RetentionStore.
func (s *Store) PruneAudit(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM audit_log WHERE at < $1`, before)
	return tag.RowsAffected(), err
}
