package sqlcore

import (
	"context"
	"encoding/json"

	"kestrel/domain"
)

// SaveBacktest implements domain.BacktestStore.
func (c *Core) SaveBacktest(ctx context.Context, b domain.BacktestRecord) error {
	if b.ID == "" || !json.Valid(b.Request) || !json.Valid(b.Result) {
		return domain.Errorf(domain.EInvalid, "A backtest needs an id and JSON request and result")
	}
	if b.Source == "" {
		b.Source = domain.BacktestFromJob
	}
	err := c.w.Tx(ctx, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result, total_return, owner, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			b.ID, c.d.Time(b.CreatedAt), b.Strategy, b.Symbol, b.Status, string(b.Request), string(b.Result), b.TotalReturn, b.Owner, b.Source)
		if err != nil || b.Keep <= 0 {
			return err
		}
		// The owner's history from this source keeps its newest Keep.
		_, err = tx.Exec(ctx, `DELETE FROM backtests WHERE owner = $1 AND source = $2 AND id NOT IN
			(SELECT id FROM backtests WHERE owner = $1 AND source = $2 ORDER BY created_at DESC, id DESC LIMIT $3)`, b.Owner, b.Source, b.Keep)
		return err
	})
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "Backtest %s already exists", b.ID)
	}
	return err
}

// Backtests implements domain.BacktestStore.
func (c *Core) Backtests(ctx context.Context, limit int) ([]domain.BacktestRecord, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := c.r.Query(ctx, `SELECT id, created_at, strategy, symbol, status, CAST(request AS TEXT), total_return, owner, source FROM backtests
		ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.BacktestRecord{}, func(r Row) (domain.BacktestRecord, error) {
		var b domain.BacktestRecord
		var req string
		if err := r.Scan(&b.ID, c.d.TimeDest(&b.CreatedAt), &b.Strategy, &b.Symbol, &b.Status, &req, &b.TotalReturn, &b.Owner, &b.Source); err != nil {
			return b, err
		}
		b.CreatedAt, b.Request = utc(b.CreatedAt), json.RawMessage(req)
		return b, nil
	})
}

// Backtest implements domain.BacktestStore.
func (c *Core) Backtest(ctx context.Context, id string) (domain.BacktestRecord, error) {
	var b domain.BacktestRecord
	var req, res string
	err := c.r.QueryRow(ctx, `SELECT id, created_at, strategy, symbol, status, CAST(request AS TEXT), CAST(result AS TEXT), total_return, owner, source
		FROM backtests WHERE id = $1`, id).
		Scan(&b.ID, c.d.TimeDest(&b.CreatedAt), &b.Strategy, &b.Symbol, &b.Status, &req, &res, &b.TotalReturn, &b.Owner, &b.Source)
	b.CreatedAt, b.Request, b.Result = utc(b.CreatedAt), json.RawMessage(req), json.RawMessage(res)
	return b, c.notFound(err, "Backtest not found")
}
