package sqlite

import (
	"context"
	"database/sql"
)

// db is one of the store's connection pools behind its one error funnel:
// every error that leaves it, or a row, rows or statement it returned, has
// been through unavailable, so a full disk or an I/O error is EUnavailable
// (503) whichever call met it. Store methods reach the pools only through it
// (TestPoolsAreReachedOnlyThroughTheFunnel); transactions are funnelled where
// they end (tx, auditTx). Its wrappers hold one pointer, so passing them as
// an interface allocates nothing. The writer's health remembers how its
// writes end (nil for the readers).
type db struct {
	pool   *sql.DB
	health *writeHealth
}

// ExecContext runs a statement; on the writer its outcome is the health's.
func (d db) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := d.pool.ExecContext(ctx, q, args...)
	err = unavailable(err)
	d.health.note(err)
	return res, err
}

// untracked is d without its health: for writes that are not the
// database's (a backup's copy goes to another file).
func (d db) untracked() db { return db{pool: d.pool} }

// QueryContext runs a query; the rows' Err and Scan are funnelled too.
func (d db) QueryContext(ctx context.Context, q string, args ...any) (sqlRows, error) {
	r, err := d.pool.QueryContext(ctx, q, args...)
	return sqlRows{r}, unavailable(err)
}

// QueryRowContext runs a query for one row; its errors appear at Scan.
func (d db) QueryRowContext(ctx context.Context, q string, args ...any) sqlRow {
	return sqlRow{d.pool.QueryRowContext(ctx, q, args...)}
}

// BeginTx starts a transaction on one connection of the pool; failing to
// is a failed write (starting one is not yet a successful one).
func (d db) BeginTx(ctx context.Context) (*sql.Tx, error) {
	tx, err := d.pool.BeginTx(ctx, nil)
	if err = unavailable(err); err != nil {
		d.health.note(err)
	}
	return tx, err
}

// Conn reserves one connection of the pool.
func (d db) Conn(ctx context.Context) (*sql.Conn, error) {
	c, err := d.pool.Conn(ctx)
	return c, unavailable(err)
}

// PrepareContext prepares q on the pool.
func (d db) PrepareContext(ctx context.Context, q string) (sqlStmt, error) {
	st, err := d.pool.PrepareContext(ctx, q)
	return sqlStmt{st}, unavailable(err)
}

// Close closes the pool.
func (d db) Close() error { return d.pool.Close() }

// sqlRow is the result of QueryRowContext.
type sqlRow struct{ r *sql.Row }

// Scan reads the row into dest; sql.ErrNoRows when there was none.
func (r sqlRow) Scan(dest ...any) error { return unavailable(r.r.Scan(dest...)) }

// sqlRows iterates a query's result.
type sqlRows struct{ *sql.Rows }

// Err is the error that ended the iteration, if any.
func (r sqlRows) Err() error { return unavailable(r.Rows.Err()) }

// Scan reads the current row into dest.
func (r sqlRows) Scan(dest ...any) error { return unavailable(r.Rows.Scan(dest...)) }

// sqlStmt is a prepared statement of a pool.
type sqlStmt struct{ st *sql.Stmt }

// QueryRowContext runs the statement for one row.
func (s sqlStmt) QueryRowContext(ctx context.Context, args ...any) sqlRow {
	return sqlRow{s.st.QueryRowContext(ctx, args...)}
}
