// Package sqlcore is the store's engine-neutral half: the queries, scans,
// null handling and error mapping that SQLite and PostgreSQL share, written
// once over a small query interface and a dialect. Each engine package
// embeds a Core and keeps only what is its own (opening, pragmas and
// prepared statements; fenced ledger writes; SQL that truly differs).
//
// SQL here uses $n placeholders: PostgreSQL reads them natively and the
// SQLite driver binds $n to the n-th argument, so no text is rewritten.
package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

// Row is one result row; a missing row shows at Scan.
type Row interface{ Scan(dest ...any) error }

// Rows iterates a query's result.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Querier runs statements: a pool or an open transaction. Its errors have
// been through the engine's error funnel (EUnavailable when the database
// cannot work for now).
type Querier interface {
	// Exec runs a statement and returns the number of rows it affected.
	Exec(ctx context.Context, q string, args ...any) (int64, error)
	Query(ctx context.Context, q string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) Row
}

// DB is a Querier that also runs transactions: fn's statements commit
// together when it returns nil, and roll back whole otherwise.
type DB interface {
	Querier
	Tx(ctx context.Context, fn func(Querier) error) error
}

// Dialect is what the engines' SQL and drivers do differently.
type Dialect interface {
	// Time is the argument for a time column.
	Time(t time.Time) any
	// TimeDest is the scan destination for a NOT NULL time column.
	TimeDest(t *time.Time) any
	// NullTimeDest is the scan destination for a nullable time column:
	// *t stays nil for NULL.
	NullTimeDest(t **time.Time) any
	// Greatest is the SQL function of the larger of its arguments
	// (SQLite's two-argument MAX, PostgreSQL's GREATEST).
	Greatest() string
	// NoRows reports whether err says a one-row query found none.
	NoRows(err error) bool
	// Unique reports whether err is a unique constraint's violation.
	Unique(err error) bool
	// ForUpdate is the clause that locks the rows a transaction's SELECT
	// reads ("" where the one writer already excludes the others).
	ForUpdate() string
	// Lock takes a lock on key held until tx ends, so two transactions
	// that check then write for the same key run one after the other
	// (nothing where the one writer already serialises them).
	Lock(ctx context.Context, tx Querier, key string) error
}

// Core implements the store methods both engines share.
type Core struct {
	r Querier // reads: SQLite's reader pool, PostgreSQL's one pool
	w DB      // writes and transactions
	d Dialect
}

// New returns the Core reading through r and writing through w.
func New(r Querier, w DB, d Dialect) Core { return Core{r: r, w: w, d: d} }

// notFound turns a missing row into an ENotFound error saying msg.
func (c *Core) notFound(err error, msg string) error {
	if err != nil && c.d.NoRows(err) {
		return domain.Errorf(domain.ENotFound, "%s", msg)
	}
	return err
}

// conflict turns a unique violation into an EConflict error saying msg.
func (c *Core) conflict(err error, msg string) error {
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "%s", msg)
	}
	return err
}
