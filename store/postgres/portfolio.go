package postgres

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

var _ domain.PortfolioStore = (*Store)(nil)

// PeakPortfolioValue implements domain.PortfolioStore.
func (s *Store) PeakPortfolioValue(ctx context.Context) (decimal.Decimal, error) {
	var v string
	if err := s.db.QueryRow(ctx, `SELECT COALESCE(MAX(value), 0)::text FROM portfolio_points`).Scan(&v); err != nil {
		return decimal.Zero, err
	}
	return decimal.NewFromString(v)
}

// ThinPortfolioPoints implements domain.PortfolioStore: it reads the points
// older than before (locking them) and deletes, by row id and in one
// transaction, those domain.ThinKeep drops.
func (s *Store) ThinPortfolioPoints(ctx context.Context, before time.Time, bucket time.Duration) (int64, error) {
	return sqlcore.ThinPortfolioPoints(ctx, &s.Core, before, bucket,
		`SELECT ctid::text, at, value::text FROM portfolio_points WHERE at < $1 ORDER BY at, ctid FOR UPDATE`,
		func(ctx context.Context, tx sqlcore.Querier, drop []string) (int64, error) {
			return tx.Exec(ctx, `DELETE FROM portfolio_points WHERE ctid = ANY($1::text[]::tid[])`, drop)
		})
}
