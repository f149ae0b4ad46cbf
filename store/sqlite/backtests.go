package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

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
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result, total_return, owner, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.ID, ms(b.CreatedAt), b.Strategy, b.Symbol, b.Status, string(b.Request), string(b.Result), b.TotalReturn, b.Owner, b.Source)
		if err != nil || b.Keep <= 0 {
			return err
		}
		// The owner's history from this source keeps its newest Keep.
		_, err = tx.ExecContext(ctx, `DELETE FROM backtests WHERE owner = ? AND source = ? AND id NOT IN
			(SELECT id FROM backtests WHERE owner = ? AND source = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
			b.Owner, b.Source, b.Owner, b.Source, b.Keep)
		return err
	})
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "Backtest %s already exists", b.ID)
	}
	return err
}

// Backtests implements domain.BacktestStore.
func (s *Store) Backtests(ctx context.Context, limit int) ([]domain.BacktestRecord, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, created_at, strategy, symbol, status, request, total_return, owner, source FROM backtests
		ORDER BY created_at DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.BacktestRecord{}
	for rows.Next() {
		var b domain.BacktestRecord
		var at int64
		var req string
		if err := rows.Scan(&b.ID, &at, &b.Strategy, &b.Symbol, &b.Status, &req, &b.TotalReturn, &b.Owner, &b.Source); err != nil {
			return nil, err
		}
		b.CreatedAt, b.Request = fromMS(at), json.RawMessage(req)
		out = append(out, b)
	}
	return out, rows.Err()
}

// Backtest implements domain.BacktestStore.
func (s *Store) Backtest(ctx context.Context, id string) (domain.BacktestRecord, error) {
	var b domain.BacktestRecord
	var at int64
	var req, res string
	err := s.r.QueryRowContext(ctx, `SELECT id, created_at, strategy, symbol, status, request, result, total_return, owner, source FROM backtests WHERE id = ?`, id).
		Scan(&b.ID, &at, &b.Strategy, &b.Symbol, &b.Status, &req, &res, &b.TotalReturn, &b.Owner, &b.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return b, domain.Errorf(domain.ENotFound, "Backtest not found")
	}
	b.CreatedAt, b.Request, b.Result = fromMS(at), json.RawMessage(req), json.RawMessage(res)
	return b, err
}
