package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"kestrel/store/sqlcore"
)

// dialect is SQLite's side of the shared core: times in integer
// milliseconds, MAX for the larger of two values.
type dialect struct{ sqlcore.MillisTimes }

func (dialect) Greatest() string      { return "MAX" }
func (dialect) NoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
func (dialect) Unique(err error) bool { return strings.Contains(err.Error(), "UNIQUE") }

// coreReader is a pool as the core's Querier.
type coreReader struct{ d db }

func (q coreReader) Exec(ctx context.Context, s string, args ...any) (int64, error) {
	return affected(q.d.ExecContext(ctx, s, args...))
}

func (q coreReader) Query(ctx context.Context, s string, args ...any) (sqlcore.Rows, error) {
	r, err := q.d.QueryContext(ctx, s, args...)
	if err != nil {
		return nil, err
	}
	return coreRows{r}, nil
}

func (q coreReader) QueryRow(ctx context.Context, s string, args ...any) sqlcore.Row {
	return q.d.QueryRowContext(ctx, s, args...)
}

// coreWriter is the writer as the core's DB: its transactions are the
// store's (tx), so their outcome is the write health's.
type coreWriter struct {
	coreReader
	s *Store
}

func (w coreWriter) Tx(ctx context.Context, fn func(sqlcore.Querier) error) error {
	return w.s.tx(ctx, func(tx *sql.Tx) error { return fn(coreTx{tx}) })
}

// coreTx is an open transaction as the core's Querier; tx funnels what
// ends it.
type coreTx struct{ tx *sql.Tx }

func (q coreTx) Exec(ctx context.Context, s string, args ...any) (int64, error) {
	return affected(q.tx.ExecContext(ctx, s, args...))
}

func (q coreTx) Query(ctx context.Context, s string, args ...any) (sqlcore.Rows, error) {
	r, err := q.tx.QueryContext(ctx, s, args...)
	if err != nil {
		return nil, unavailable(err)
	}
	return coreRows{sqlRows{r}}, nil
}

func (q coreTx) QueryRow(ctx context.Context, s string, args ...any) sqlcore.Row {
	return sqlRow{q.tx.QueryRowContext(ctx, s, args...)}
}

// coreRows are sqlRows closed without a result.
type coreRows struct{ sqlRows }

func (r coreRows) Close() { r.Rows.Close() }

// affected is the count of rows an Exec changed, or its error.
func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// newCore returns the shared core over s's pools.
func newCore(s *Store) sqlcore.Core {
	return sqlcore.New(coreReader{s.r}, coreWriter{coreReader{s.w}, s}, dialect{})
}
