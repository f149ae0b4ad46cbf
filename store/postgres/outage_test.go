package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
)

// With its database refusing connections and its connections terminated,
// the ledger's reads and writes fail as EUnavailable (so the API answers
// 503, not 500), and work again by themselves once the database is back.
func TestLedgerUnavailableWhileTheDatabaseIsCutOff(t *testing.T) {
	ctx := context.Background()
	name, url := pgtest.Database(t)
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	admin, err := pgx.Connect(ctx, pgtest.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true") })
	exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false")
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name)

	usd := domain.Balance{Currency: "USD", Available: decimal.NewFromInt(100)}
	for what, err := range map[string]error{
		"write":            st.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{usd}}),
		"client id lookup": second(st.LedgerOrderByClientID(ctx, "u1", "c1")),
		"order":            second(st.LedgerOrder(ctx, "o1")),
		"balances":         second(st.LedgerBalances(ctx)),
		"live orders":      second(st.LedgerLiveOrders(ctx)),
		"fills":            second(st.LedgerFills(ctx, domain.FillFilter{})),
		"positions":        second(st.LedgerPositions(ctx)),
	} {
		if domain.ErrorCode(err) != domain.EUnavailable {
			t.Errorf("%s while cut off: %v, want EUnavailable", what, err)
		}
	}
	if err := st.Ping(ctx); err == nil {
		t.Error("Ping succeeded while the database refused connections")
	}

	exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true")
	if err := st.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{usd}}); err != nil {
		t.Fatalf("write once the database is back: %v", err)
	}
	if _, err := st.LedgerOrderByClientID(ctx, "u1", "c1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("lookup once the database is back: %v, want not found", err)
	}
}

func second[T any](_ T, err error) error { return err }
