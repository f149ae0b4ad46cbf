package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"kestrel/domain"
	"kestrel/store/sqlite"
	"kestrel/store/storetest/enginetest"
)

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kestrel.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutValue(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = sqlite.Open(ctx, path) // migrations must be idempotent
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.GetValue(ctx, "k"); err != nil || got != "v" {
		t.Fatalf("after reopen GetValue = %q, %v", got, err)
	}
}

func TestContract(t *testing.T) {
	enginetest.Contracts(t, func(t *testing.T) domain.Store { return open(t) })
}

// legacy is a new database file reached by database/sql, before the store
// opens it.
func legacy(t *testing.T) enginetest.Legacy {
	path := filepath.Join(t.TempDir(), "kestrel.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	return enginetest.Legacy{
		Exec:   enginetest.Exec(db.ExecContext),
		Close:  func() { db.Close() },
		Open:   func(ctx context.Context) (domain.Store, error) { return sqlite.Open(ctx, path) },
		Schema: `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`,
		Record: `INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`,
	}
}

func TestUpgradeKeepsLegacyOrders(t *testing.T) {
	enginetest.UpgradeKeepsLegacyOrders(t, legacy(t), `INSERT INTO sandbox_orders (id, client_order_id, symbol, side, type, quantity, price, filled_quantity, fee, status, user_id, created_at, updated_at)
		VALUES ('old', 'c1', 'BTC-USD', 'buy', 'limit', '0.5', '50000', '0', '0', 'open', 'u1', 0, 0)`)
}

func TestUpgradeListsOldBacktestReturns(t *testing.T) {
	enginetest.UpgradeListsOldBacktestReturns(t, legacy(t), `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result) VALUES (?, ?, 'technical_strategy', 'BTC-USD', 'completed', '{}', ?)`)
}
