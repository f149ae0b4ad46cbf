package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/store/sqlite"
	"kestrel/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

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
	path := filepath.Join(t.TempDir(), "kestrel.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
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
		if _, err := db.ExecContext(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO sandbox_orders (id, client_order_id, symbol, side, type, quantity, price, filled_quantity, fee, status, user_id, created_at, updated_at)
		VALUES ('old', 'c1', 'BTC-USD', 'buy', 'limit', '0.5', '50000', '0', '0', 'open', 'u1', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := sqlite.Open(ctx, path)
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
	path := filepath.Join(t.TempDir(), "kestrel.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
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
		if _, err := db.ExecContext(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`, v); err != nil {
			t.Fatal(err)
		}
	}
	for i, res := range []string{`{"total_return":-0.0497,"total_trades":26}`, `{"total_trades":0}`} {
		if _, err := db.ExecContext(ctx, `INSERT INTO backtests (id, created_at, strategy, symbol, status, request, result) VALUES (?, ?, 'technical_strategy', 'BTC-USD', 'completed', '{}', ?)`,
			strconv.Itoa(i), i, res); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.Backtests(ctx, 10)
	if err != nil || len(list) != 2 || list[1].TotalReturn == nil || *list[1].TotalReturn != -0.0497 || list[0].TotalReturn != nil {
		t.Fatalf("%+v %v: want the old run's return, and none for a report without one", list, err)
	}
}
