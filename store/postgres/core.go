package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/store/sqlcore"
)

// dialect is PostgreSQL's side of the shared core: native timestamptz,
// GREATEST, SQLSTATE error classes.
type dialect struct{ sqlcore.NativeTimes }

func (dialect) Greatest() string      { return "GREATEST" }
func (dialect) NoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

func (dialect) Unique(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// coreDB is the pool as the core's DB.
type coreDB struct{ d db }

func (q coreDB) Exec(ctx context.Context, s string, args ...any) (int64, error) {
	return affected(q.d.Exec(ctx, s, args...))
}

func (q coreDB) Query(ctx context.Context, s string, args ...any) (sqlcore.Rows, error) {
	r, err := q.d.Query(ctx, s, args...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (q coreDB) QueryRow(ctx context.Context, s string, args ...any) sqlcore.Row {
	return q.d.QueryRow(ctx, s, args...)
}

func (q coreDB) Tx(ctx context.Context, fn func(sqlcore.Querier) error) error {
	return q.d.BeginFunc(ctx, func(tx pgx.Tx) error { return fn(coreTx{tx}) })
}

// coreTx is an open transaction as the core's Querier; BeginFunc funnels
// what ends it.
type coreTx struct{ tx pgx.Tx }

func (q coreTx) Exec(ctx context.Context, s string, args ...any) (int64, error) {
	return affected(q.tx.Exec(ctx, s, args...))
}

func (q coreTx) Query(ctx context.Context, s string, args ...any) (sqlcore.Rows, error) {
	r, err := q.tx.Query(ctx, s, args...)
	if err != nil {
		return nil, unreachable(err)
	}
	return pgRows{r}, nil
}

func (q coreTx) QueryRow(ctx context.Context, s string, args ...any) sqlcore.Row {
	return pgRow{q.tx.QueryRow(ctx, s, args...)}
}

// affected is the count of rows an Exec changed.
func affected(tag pgconn.CommandTag, err error) (int64, error) {
	return tag.RowsAffected(), err
}

// newCore returns the shared core over s's pool.
func newCore(s *Store) sqlcore.Core {
	q := coreDB{s.db}
	return sqlcore.New(q, q, dialect{})
}
