package postgres

import (
	"context"

	"kestrel/store/sqlcore"
)

// ForUpdate implements sqlcore.Dialect.
func (dialect) ForUpdate() string { return " FOR UPDATE" }

// Lock implements sqlcore.Dialect with a transaction-scoped advisory lock.
func (dialect) Lock(ctx context.Context, tx sqlcore.Querier, key string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, key)
	return err
}
