package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

var _ domain.BacktestStore = (*Store)(nil)

// SaveBacktest implements domain.BacktestStore.
func (s *Store) SaveBacktest(ctx context.Context, b domain.BacktestRecord) error {
	if b.ID == "" || !json.Valid(b.Request) || !json.Valid(b.Result) {
		return domain.Errorf(domain.EInvalid, "A backtest needs an id and JSON request and result")
	}
	if b.Source == "" {
		b.Source = domain.BacktestFromJob
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result, total_return, owner, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			b.ID, b.CreatedAt, b.Strategy, b.Symbol, b.Status, string(b.Request), string(b.Result), b.TotalReturn, b.Owner, b.Source)
		if err != nil || b.Keep <= 0 {
			return err
		}
		// The owner's history from this source keeps its newest Keep.
		_, err = tx.Exec(ctx, `DELETE FROM backtests WHERE owner = $1 AND source = $2 AND id NOT IN
			(SELECT id FROM backtests WHERE owner = $1 AND source = $2 ORDER BY created_at DESC, id DESC LIMIT $3)`, b.Owner, b.Source, b.Keep)
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "Backtest %s already exists", b.ID)
	}
	return err
}

// Backtests implements domain.BacktestStore.
func (s *Store) Backtests(ctx context.Context, limit int) ([]domain.BacktestRecord, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.Query(ctx, `SELECT id, created_at, strategy, symbol, status, request::text, total_return, owner, source FROM backtests
		ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.BacktestRecord{}
	for rows.Next() {
		var b domain.BacktestRecord
		var req string
		if err := rows.Scan(&b.ID, &b.CreatedAt, &b.Strategy, &b.Symbol, &b.Status, &req, &b.TotalReturn, &b.Owner, &b.Source); err != nil {
			return nil, err
		}
		b.CreatedAt, b.Request = b.CreatedAt.UTC(), json.RawMessage(req)
		out = append(out, b)
	}
	return out, rows.Err()
}

// Backtest implements domain.BacktestStore.
func (s *Store) Backtest(ctx context.Context, id string) (domain.BacktestRecord, error) {
	var b domain.BacktestRecord
	var req, res string
	err := s.db.QueryRow(ctx, `SELECT id, created_at, strategy, symbol, status, request::text, result::text, total_return, owner, source FROM backtests WHERE id = $1`, id).
		Scan(&b.ID, &b.CreatedAt, &b.Strategy, &b.Symbol, &b.Status, &req, &res, &b.TotalReturn, &b.Owner, &b.Source)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, domain.Errorf(domain.ENotFound, "Backtest not found")
	}
	b.CreatedAt, b.Request, b.Result = b.CreatedAt.UTC(), json.RawMessage(req), json.RawMessage(res)
	return b, err
}
