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
	_, err := s.db.Exec(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result, total_return) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		b.ID, b.CreatedAt, b.Strategy, b.Symbol, b.Status, string(b.Request), string(b.Result), b.TotalReturn)
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
	rows, err := s.db.Query(ctx, `SELECT id, created_at, strategy, symbol, status, request::text, total_return FROM backtests
		ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.BacktestRecord{}
	for rows.Next() {
		var b domain.BacktestRecord
		var req string
		if err := rows.Scan(&b.ID, &b.CreatedAt, &b.Strategy, &b.Symbol, &b.Status, &req, &b.TotalReturn); err != nil {
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
	err := s.db.QueryRow(ctx, `SELECT id, created_at, strategy, symbol, status, request::text, result::text, total_return FROM backtests WHERE id = $1`, id).
		Scan(&b.ID, &b.CreatedAt, &b.Strategy, &b.Symbol, &b.Status, &req, &res, &b.TotalReturn)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, domain.Errorf(domain.ENotFound, "Backtest not found")
	}
	b.CreatedAt, b.Request, b.Result = b.CreatedAt.UTC(), json.RawMessage(req), json.RawMessage(res)
	return b, err
}
