package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

// queryAll runs q on db and scans every row with scan (collect).
func queryAll[T any](ctx context.Context, db Querier, scan func(Row) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, []T{}, scan)
}

// execOne runs a write of one row on the writer: ENotFound saying msg when
// it matched none.
func (c *Core) execOne(ctx context.Context, msg string, q string, args ...any) error {
	return execOneOn(ctx, c.w, msg, q, args...)
}

// execOneOn is execOne on q (an open transaction, say).
func execOneOn(ctx context.Context, on Querier, msg string, q string, args ...any) error {
	n, err := on.Exec(ctx, q, args...)
	if err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.ENotFound, "%s", msg)
	}
	return nil
}

// nullTime is the argument for a nullable time column: NULL for nil.
func (c *Core) nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return c.d.Time(*t)
}

// TableLocker is a Dialect that must lock a table for a transaction to
// count its rows and insert as one step (PostgreSQL); SQLite's write
// transactions run one at a time already and do not implement it.
type TableLocker interface {
	// LockTable is the statement that holds table against concurrent
	// writers until the transaction ends.
	LockTable(table string) string
}

// lockTable runs the dialect's table lock in tx, if it has one.
func (c *Core) lockTable(ctx context.Context, tx Querier, table string) error {
	l, ok := c.d.(TableLocker)
	if !ok {
		return nil
	}
	_, err := tx.Exec(ctx, l.LockTable(table))
	return err
}

// InsertOrderer is a Dialect with a column that orders a table's rows as
// they were inserted (SQLite's rowid): listings break ties of equal times
// with it. Without one, ties break by id.
type InsertOrderer interface{ InsertOrder() string }

func (c *Core) insertOrder() string {
	if o, ok := c.d.(InsertOrderer); ok {
		return o.InsertOrder()
	}
	return "id"
}
