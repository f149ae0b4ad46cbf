package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
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
// domain.ThinKeep drops.
func (s *Store) ThinPortfolioPoints(ctx context.Context, before time.Time, bucket time.Duration) (int64, error) {
	var deleted int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, at, value FROM portfolio_points WHERE at < ? ORDER BY at, rowid`, ms(before))
		if err != nil {
			return err
		}
		var ids []int64
		var pts []domain.PortfolioPoint
		for rows.Next() {
			var id, at int64
			var value string
			if err := rows.Scan(&id, &at, &value); err != nil {
				rows.Close()
				return err
			}
			v, err := decimal.NewFromString(value)
			if err != nil {
				rows.Close()
				return err
			}
			ids, pts = append(ids, id), append(pts, domain.PortfolioPoint{Time: fromMS(at), Value: v})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var drop []any
		for i, k := range domain.ThinKeep(pts, bucket) {
			if !k {
				drop = append(drop, ids[i])
			}
		}
		for len(drop) > 0 {
			n := min(len(drop), 500)
			q := `DELETE FROM portfolio_points WHERE rowid IN (?` + strings.Repeat(`, ?`, n-1) + `)`
			res, err := tx.ExecContext(ctx, q, drop[:n]...)
			if err != nil {
				return err
			}
			c, _ := res.RowsAffected()
			deleted += c
			drop = drop[n:]
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return deleted, nil
}
