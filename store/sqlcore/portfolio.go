package sqlcore

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Portfolio values are exact decimal text in SQLite and numeric in
// PostgreSQL; both drivers pass them as text, so no float touches them.

// AppendPortfolioPoint implements domain.PortfolioStore.
func (c *Core) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
	_, err := c.w.Exec(ctx, `INSERT INTO portfolio_points (at, value, cash) VALUES ($1, $2, $3)`, c.d.Time(p.Time), p.Value.String(), p.Cash.String())
	return err
}

// PortfolioPoints implements domain.PortfolioStore: the newest limit
// points of the span, oldest first.
func (c *Core) PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	return queryAll(ctx, c.r, c.scanPoint, `SELECT at, value, cash FROM (
		SELECT at, value, cash FROM portfolio_points WHERE at >= $1 AND at < $2 ORDER BY at DESC LIMIT $3) p ORDER BY at`,
		c.d.Time(since), c.d.Time(until), limit)
}

// PortfolioPointAt implements domain.PortfolioStore.
func (c *Core) PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error) {
	p, err := c.scanPoint(c.r.QueryRow(ctx, `SELECT at, value, cash FROM portfolio_points WHERE at <= $1 ORDER BY at DESC LIMIT 1`, c.d.Time(t)))
	return p, c.notFound(err, "No portfolio value recorded before "+t.Format(time.RFC3339))
}

func (c *Core) scanPoint(row Row) (domain.PortfolioPoint, error) {
	var p domain.PortfolioPoint
	var value, cash string
	if err := row.Scan(c.d.TimeDest(&p.Time), &value, &cash); err != nil {
		return p, err
	}
	p.Time = utc(p.Time)
	var err error
	if p.Value, err = decimal.NewFromString(value); err != nil {
		return p, err
	}
	p.Cash, err = decimal.NewFromString(cash)
	return p, err
}

// ThinPortfolioPoints is domain.PortfolioStore's thinning over an engine's
// row ids: in one transaction it reads the points older than before with
// sel (row id, time, value as text; $1 the bound) and deletes with del, by
// row id, those domain.ThinKeep drops. It answers how many del deleted.
func ThinPortfolioPoints[ID any](ctx context.Context, c *Core, before time.Time, bucket time.Duration, sel string,
	del func(ctx context.Context, tx Querier, ids []ID) (int64, error)) (int64, error) {
	var deleted int64
	err := c.w.Tx(ctx, func(tx Querier) error {
		type row struct {
			id ID
			p  domain.PortfolioPoint
		}
		rows, err := queryAll(ctx, tx, func(r Row) (row, error) {
			var x row
			var value string
			if err := r.Scan(&x.id, c.d.TimeDest(&x.p.Time), &value); err != nil {
				return x, err
			}
			x.p.Time = utc(x.p.Time)
			v, err := decimal.NewFromString(value)
			x.p.Value = v
			return x, err
		}, sel, c.d.Time(before))
		if err != nil {
			return err
		}
		pts := make([]domain.PortfolioPoint, len(rows))
		for i, x := range rows {
			pts[i] = x.p
		}
		var drop []ID
		for i, k := range domain.ThinKeep(pts, bucket) {
			if !k {
				drop = append(drop, rows[i].id)
			}
		}
		if len(drop) == 0 {
			return nil
		}
		deleted, err = del(ctx, tx, drop)
		return err
	})
	if err != nil {
		return 0, err
	}
	return deleted, nil
}
