package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// db is the pool behind the store's one error funnel: every error that
// leaves it, or a row or rows it returned, has been through unreachable, so
// a lost connection is EUnavailable (503) whichever call met it and an SQL
// error stays what it is. Store methods reach the database only through it
// (TestPoolIsReachedOnlyThroughTheFunnel). Its wrappers are values holding
// what pgx returned: no allocation is added to a call.
type db struct{ pool *pgxpool.Pool }

// Exec runs a statement.
func (d db) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := d.pool.Exec(ctx, sql, args...)
	return tag, unreachable(err)
}

// Query runs a query; the rows' Err is funnelled too.
func (d db) Query(ctx context.Context, sql string, args ...any) (pgRows, error) {
	r, err := d.pool.Query(ctx, sql, args...)
	return pgRows{r}, unreachable(err)
}

// QueryRow runs a query for one row; pgx reports its errors at Scan.
func (d db) QueryRow(ctx context.Context, sql string, args ...any) pgRow {
	return pgRow{d.pool.QueryRow(ctx, sql, args...)}
}

// SendBatch sends b and reads every result; it returns the first error.
func (d db) SendBatch(ctx context.Context, b *pgx.Batch) error {
	return unreachable(d.pool.SendBatch(ctx, b).Close())
}

// CopyFrom bulk-inserts src into table.
func (d db) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	n, err := d.pool.CopyFrom(ctx, table, cols, src)
	return n, unreachable(err)
}

// BeginFunc runs fn in a transaction, committing when it returns nil. Errors
// from the transaction's own calls come out through here, so fn returns
// them as pgx gives them.
func (d db) BeginFunc(ctx context.Context, fn func(pgx.Tx) error) error {
	return unreachable(pgx.BeginFunc(ctx, d.pool, fn))
}

// Close closes the pool.
func (d db) Close() { d.pool.Close() }

// Ping checks the database answers.
func (d db) Ping(ctx context.Context) error { return unreachable(d.pool.Ping(ctx)) }

// pgRow is one result row: of QueryRow (whose query errors appear at Scan),
// of a transaction's QueryRow, or the current row of pgRows.
type pgRow struct{ r pgx.Row }

// Scan reads the row into dest.
func (r pgRow) Scan(dest ...any) error { return unreachable(r.r.Scan(dest...)) }

// pgRows iterates a query's result. A connection lost mid-result ends Next
// and shows in Err.
type pgRows struct{ pgx.Rows }

// Err is the error that ended the iteration, if any.
func (r pgRows) Err() error { return unreachable(r.Rows.Err()) }

// Scan reads the current row into dest.
func (r pgRows) Scan(dest ...any) error { return unreachable(r.Rows.Scan(dest...)) }
