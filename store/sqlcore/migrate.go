package sqlcore

import (
	"context"
	"time"

	"kestrel/store/migrate"
)

// MigratedVersions lists the versions schema_migrations records. The
// engine creates that table first: its column types are its own.
func (c *Core) MigratedVersions(ctx context.Context) (map[int]bool, error) {
	rows, err := c.w.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	vs, err := collect(rows, nil, func(r Row) (v int, err error) { return v, r.Scan(&v) })
	if err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(vs))
	for _, v := range vs {
		done[v] = true
	}
	return done, nil
}

// Apply implements migrate.Target: the migration and its record commit
// together.
func (c *Core) Apply(ctx context.Context, m migrate.Migration) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`, m.Version, c.d.Time(time.Now()))
		return err
	})
}
