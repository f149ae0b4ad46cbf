package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var _ domain.PortfolioStore = (*Store)(nil)

// AppendPortfolioPoint implements domain.PortfolioStore.
func (s *Store) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
	_, err := s.db.Exec(ctx, `INSERT INTO portfolio_points (at, value, cash) VALUES ($1, $2::numeric, $3::numeric)`, p.Time, p.Value.String(), p.Cash.String())
	return err
}

// PortfolioPoints implements domain.PortfolioStore.
func (s *Store) PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	rows, err := s.db.Query(ctx, `SELECT at, value::text, cash::text FROM (
		SELECT at, value, cash FROM portfolio_points WHERE at >= $1 AND at < $2 ORDER BY at DESC LIMIT $3) p ORDER BY at`,
		since, until, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.PortfolioPoint{}
	for rows.Next() {
		p, err := scanPoint(rows.row())
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PortfolioPointAt implements domain.PortfolioStore.
func (s *Store) PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error) {
	p, err := scanPoint(s.db.QueryRow(ctx, `SELECT at, value::text, cash::text FROM portfolio_points WHERE at <= $1 ORDER BY at DESC LIMIT 1`, t))
	return p, notFound(err, "No portfolio value recorded before "+t.Format(time.RFC3339))
}

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

func scanPoint(row pgRow) (domain.PortfolioPoint, error) {
	var p domain.PortfolioPoint
	var value, cash string
	if err := row.Scan(&p.Time, &value, &cash); err != nil {
		return p, err
	}
	p.Time = p.Time.UTC()
	var err error
	if p.Value, err = decimal.NewFromString(value); err != nil {
		return p, err
	}
	p.Cash, err = decimal.NewFromString(cash)
	return p, err
}
