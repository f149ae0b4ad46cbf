package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/storetest/enginetest"
)

func TestContract(t *testing.T) {
	enginetest.Contracts(t, func(t *testing.T) domain.Store { return open(t, pgtest.URL(t)) })
}

// legacy is a new schema reached by a plain connection, before the store
// opens it.
func legacy(t *testing.T) enginetest.Legacy {
	ctx := context.Background()
	url := pgtest.URL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	return enginetest.Legacy{
		Exec:   enginetest.Exec(conn.Exec),
		Close:  func() { conn.Close(ctx) },
		Open:   func(ctx context.Context) (domain.Store, error) { return postgres.Open(ctx, url) },
		Schema: `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
		Record: `INSERT INTO schema_migrations (version) VALUES ($1)`,
	}
}

func TestUpgradeKeepsLegacyOrders(t *testing.T) {
	enginetest.UpgradeKeepsLegacyOrders(t, legacy(t), `INSERT INTO sandbox_orders (id, client_order_id, symbol, side, type, quantity, price, filled_quantity, fee, status, user_id, created_at, updated_at)
		VALUES ('old', 'c1', 'BTC-USD', 'buy', 'limit', '0.5', '50000', '0', '0', 'open', 'u1', now(), now())`)
}

func TestUpgradeListsOldBacktestReturns(t *testing.T) {
	enginetest.UpgradeListsOldBacktestReturns(t, legacy(t), `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result) VALUES ($1, now() + make_interval(secs => $2), 'technical_strategy', 'BTC-USD', 'completed', '{}', $3)`)
}

// A stored strategy version cannot be rewritten, even by SQL outside the store.
func TestStrategyVersionsImmutable(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	s, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "rsi", Params: []byte(`{"a":1}`), Note: "first"}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE strategy_versions SET note = 'x'`); err == nil || !strings.Contains(err.Error(), "immutable") {
		t.Fatalf("rewriting a version: %v, want refused", err)
	}
}
