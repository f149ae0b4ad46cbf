package postgres_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/storetest"
)

// openStore returns a store on a new schema, closed when the test ends.
func openStore(t *testing.T) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.Store {
		s, err := postgres.Open(context.Background(), pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestPortfolioContract(t *testing.T) {
	storetest.RunPortfolio(t, func(t *testing.T) domain.PortfolioStore { return openStore(t) })
}

func TestAlertsContract(t *testing.T) {
	storetest.RunAlerts(t, openStore(t))
}

func TestLedgerContract(t *testing.T) {
	storetest.RunLedger(t, openStore(t))
}

func TestLedgerAccountsContract(t *testing.T) {
	storetest.RunLedgerAccounts(t, func(t *testing.T) domain.LedgerAccounts { return openStore(t) })
}

func TestPromotionsContract(t *testing.T) {
	storetest.RunPromotions(t, func(t *testing.T) domain.Store { return openStore(t) })
}

func TestLogsContract(t *testing.T) {
	storetest.RunLogs(t, openStore(t))
}

func TestStrategiesContract(t *testing.T) {
	storetest.RunStrategies(t, func(t *testing.T) domain.StrategyStore { return openStore(t) })
}

// TestUpgradeKeepsLegacyOrders builds a database as it was before migration
// 0010, then opens it: the old order reads with a zero hold and no OCO links,
// and client ids become unique per user only.
func TestUpgradeKeepsLegacyOrders(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	for _, f := range files {
		v, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "_", 2)[0])
		if err != nil || v >= 10 {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO sandbox_orders (id, client_order_id, symbol, side, type, quantity, price, filled_quantity, fee, status, user_id, created_at, updated_at)
		VALUES ('old', 'c1', 'BTC-USD', 'buy', 'limit', '0.5', '50000', '0', '0', 'open', 'u1', now(), now())`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	s, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o, err := s.LedgerOrderByClientID(ctx, "u1", "c1")
	if err != nil || o.ID != "old" || !o.Hold.IsZero() || o.GroupID != "" || o.ParentID != "" {
		t.Fatalf("legacy order = %+v, %v", o, err)
	}
	other := o
	other.ID, other.UserID = "new", "u2"
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{other}}); err != nil {
		t.Fatalf("same client id for another user after the upgrade: %v", err)
	}
	other.ID, other.UserID = "dup", "u1"
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{other}}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("same client id for the same user after the upgrade: %v, want conflict", err)
	}
}

func TestBacktestsContract(t *testing.T) {
	storetest.RunBacktests(t, openStore(t))
}

func TestJobsContract(t *testing.T) {
	storetest.RunJobs(t, openStore(t))
}

func TestQuotasContract(t *testing.T) {
	storetest.RunQuotas(t, openStore(t))
}

func TestSweepsContract(t *testing.T) {
	storetest.RunSweeps(t, openStore(t))
}

func TestCandlesContract(t *testing.T) {
	storetest.RunCandles(t, openStore(t))
}

// TestUpgradeListsOldBacktestReturns builds a database as it was before
// migration 0046 with a stored run, then opens it: the run is listed with
// the total return of its report; a report without one lists none.
func TestUpgradeListsOldBacktestReturns(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	for _, f := range files {
		v, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "_", 2)[0])
		if err != nil || v >= 46 {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, v); err != nil {
			t.Fatal(err)
		}
	}
	for i, res := range []string{`{"total_return":-0.0497,"total_trades":26}`, `{"total_trades":0}`} {
		if _, err := conn.Exec(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result) VALUES ($1, now() + make_interval(secs => $2), 'technical_strategy', 'BTC-USD', 'completed', '{}', $3)`,
			strconv.Itoa(i), i, res); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close(ctx)
	s, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.Backtests(ctx, 10)
	if err != nil || len(list) != 2 || list[1].TotalReturn == nil || *list[1].TotalReturn != -0.0497 || list[0].TotalReturn != nil {
		t.Fatalf("%+v %v: want the old run's return, and none for a report without one", list, err)
	}
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
