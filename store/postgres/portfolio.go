package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"kestrel/domain"
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
	var deleted int64
	err := s.tx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT ctid::text, at, value::text FROM portfolio_points WHERE at < $1 ORDER BY at, ctid FOR UPDATE`, before)
		if err != nil {
			return err
		}
		var ids []string
		var pts []domain.PortfolioPoint
		for rows.Next() {
			var id, value string
			var at time.Time
			if err := rows.Scan(&id, &at, &value); err != nil {
				rows.Close()
				return err
			}
			v, err := decimal.NewFromString(value)
			if err != nil {
				rows.Close()
				return err
			}
			ids, pts = append(ids, id), append(pts, domain.PortfolioPoint{Time: at.UTC(), Value: v})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var drop []string
		for i, k := range domain.ThinKeep(pts, bucket) {
			if !k {
				drop = append(drop, ids[i])
			}
		}
		if len(drop) == 0 {
			return nil
		}
		tag, err := tx.Exec(ctx, `DELETE FROM portfolio_points WHERE ctid = ANY($1::text[]::tid[])`, drop)
		deleted = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, err
	}
	return deleted, nil
}
