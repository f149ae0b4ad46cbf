package sqlite

import (
	"context"

	"kestrel/store/sqlcore"
)

// ForUpdate implements sqlcore.Dialect: the one writer holds the
// database for the whole transaction.
func (dialect) ForUpdate() string { return "" }

// Lock implements sqlcore.Dialect: nothing to take, write transactions
// already run one at a time.
func (dialect) Lock(context.Context, sqlcore.Querier, string) error { return nil }
