package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var _ domain.PortfolioStore = (*Store)(nil)

// AppendPortfolioPoint implements domain.PortfolioStore.
func (s *Store) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO portfolio_points (at, value, cash) VALUES (?, ?, ?)`, ms(p.Time), p.Value.String(), p.Cash.String())
	return err
}

// PortfolioPoints implements domain.PortfolioStore.
func (s *Store) PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT at, value, cash FROM (
		SELECT at, value, cash FROM portfolio_points WHERE at >= ? AND at < ? ORDER BY at DESC LIMIT ?) ORDER BY at`,
		ms(since), ms(until), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.PortfolioPoint{}
	for rows.Next() {
		p, err := scanPoint(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PortfolioPointAt implements domain.PortfolioStore.
func (s *Store) PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error) {
	p, err := scanPoint(s.r.QueryRowContext(ctx, `SELECT at, value, cash FROM portfolio_points WHERE at <= ? ORDER BY at DESC LIMIT 1`, ms(t)))
	if errors.Is(err, sql.ErrNoRows) {
		return p, domain.Errorf(domain.ENotFound, "No portfolio value recorded before %s", t.Format(time.RFC3339))
	}
	return p, err
}

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

// PrunePortfolioPoints implements domain.PortfolioStore.
func (s *Store) PrunePortfolioPoints(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM portfolio_points WHERE at < ?`, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func scanPoint(row interface{ Scan(...any) error }) (domain.PortfolioPoint, error) {
	var p domain.PortfolioPoint
	var at int64
	var value, cash string
	if err := row.Scan(&at, &value, &cash); err != nil {
		return p, err
	}
	p.Time = fromMS(at)
	var err error
	if p.Value, err = decimal.NewFromString(value); err != nil {
		return p, err
	}
	p.Cash, err = decimal.NewFromString(cash)
	return p, err
}
