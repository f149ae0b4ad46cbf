package postgres

import (
	"context"
	"time"

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

// PrunePortfolioPoints implements domain.PortfolioStore.
func (s *Store) PrunePortfolioPoints(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM portfolio_points WHERE at < $1`, before)
	return tag.RowsAffected(), err
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
