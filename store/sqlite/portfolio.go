package sqlite

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

var _ domain.PortfolioStore = (*Store)(nil)

// PeakPortfolioValue implements domain.PortfolioStore. Values are exact decimal
// text, so the maximum is taken here rather than by SQLite's text ordering.
func (s *Store) PeakPortfolioValue(ctx context.Context) (decimal.Decimal, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT value FROM portfolio_points`)
	if err != nil {
		return decimal.Zero, err
	}
	defer rows.Close()
	peak := decimal.Zero
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return decimal.Zero, err
		}
		if d, err := decimal.NewFromString(v); err == nil && d.GreaterThan(peak) {
			peak = d
		}
	}
	return peak, rows.Err()
}

// ThinPortfolioPoints implements domain.PortfolioStore: it reads the points
// older than before and deletes, by rowid and in one transaction, those
// domain.ThinKeep drops, 500 ids a statement (below SQLite's bound on
// variables).
func (s *Store) ThinPortfolioPoints(ctx context.Context, before time.Time, bucket time.Duration) (int64, error) {
	return sqlcore.ThinPortfolioPoints(ctx, &s.Core, before, bucket,
		`SELECT rowid, at, value FROM portfolio_points WHERE at < $1 ORDER BY at, rowid`,
		func(ctx context.Context, tx sqlcore.Querier, drop []int64) (int64, error) {
			var deleted int64
			for len(drop) > 0 {
				n := min(len(drop), 500)
				ids := make([]any, n)
				for i, id := range drop[:n] {
					ids[i] = id
				}
				c, err := tx.Exec(ctx, `DELETE FROM portfolio_points WHERE rowid IN (?`+strings.Repeat(`, ?`, n-1)+`)`, ids...)
				if err != nil {
					return deleted, err
				}
				deleted += c
				drop = drop[n:]
			}
			return deleted, nil
		})
}
