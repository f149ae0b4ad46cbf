// Package enginetest holds the tests each store engine runs the same way:
// every contract suite in one call, and the upgrades from a database that
// older migrations built. An engine supplies how to open its store and how
// to reach its raw database; the checks are written once here.
package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/store/storetest"
)

// Contracts runs the contract suites on new stores from open:
// storetest.Run's cases (Run closes their stores), then each other suite as
// a subtest, its stores closed when it ends.
func Contracts(t *testing.T, open storetest.Open) {
	storetest.Run(t, open)
	closing := func(t *testing.T) domain.Store {
		s := open(t)
		t.Cleanup(func() { s.Close() })
		return s
	}
	suites := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"Portfolio", func(t *testing.T) {
			storetest.RunPortfolio(t, func(t *testing.T) domain.PortfolioStore { return closing(t) })
		}},
		{"Alerts", func(t *testing.T) { storetest.RunAlerts(t, closing(t)) }},
		{"Ledger", func(t *testing.T) { storetest.RunLedger(t, closing(t)) }},
		{"LedgerAccounts", func(t *testing.T) {
			storetest.RunLedgerAccounts(t, func(t *testing.T) domain.LedgerAccounts { return closing(t) })
		}},
		{"Promotions", func(t *testing.T) { storetest.RunPromotions(t, closing) }},
		{"Logs", func(t *testing.T) { storetest.RunLogs(t, closing(t)) }},
		{"Strategies", func(t *testing.T) {
			storetest.RunStrategies(t, func(t *testing.T) domain.StrategyStore { return closing(t) })
		}},
		{"Backtests", func(t *testing.T) { storetest.RunBacktests(t, closing(t)) }},
		{"Jobs", func(t *testing.T) { storetest.RunJobs(t, closing(t)) }},
		{"Quotas", func(t *testing.T) { storetest.RunQuotas(t, closing(t)) }},
		{"Sweeps", func(t *testing.T) { storetest.RunSweeps(t, closing(t)) }},
		{"Candles", func(t *testing.T) { storetest.RunCandles(t, closing(t)) }},
		{"Notify", func(t *testing.T) {
			s := closing(t)
			storetest.RunNotify(t, s)
			storetest.RunNotifyEvents(t, s)
			storetest.RunVenueFills(t, s)
		}},
	}
	for _, c := range suites {
		t.Run(c.name, c.run)
	}
}

// Legacy is an engine's raw database before its store opens it, with the
// engine's SQL for the bookkeeping of applied migrations.
type Legacy struct {
	// Exec runs one statement on the raw database.
	Exec func(ctx context.Context, q string, args ...any) error
	// Close closes the raw database (before Open).
	Close func()
	// Open opens the store on the same database.
	Open func(ctx context.Context) (domain.Store, error)
	// Schema creates schema_migrations; Record notes one applied version,
	// its one argument.
	Schema, Record string
}

// migrateBefore applies the engine's migrations (migrations/*.sql of the
// package under test) older than version, as that version's predecessor
// left the database.
func (l Legacy) migrateBefore(t *testing.T, ctx context.Context, version int) {
	t.Helper()
	if err := l.Exec(ctx, l.Schema); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	for _, f := range files {
		v, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "_", 2)[0])
		if err != nil || v >= version {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Exec(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := l.Exec(ctx, l.Record, v); err != nil {
			t.Fatal(err)
		}
	}
}

// open closes the raw database and opens the store on it, closed when the
// test ends.
func (l Legacy) open(t *testing.T, ctx context.Context) domain.Store {
	t.Helper()
	l.Close()
	s, err := l.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// UpgradeKeepsLegacyOrders builds a database as it was before migration
// 0010 with one order (oldOrder inserts it: id old, client id c1, user u1),
// then opens it: the old order reads with a zero hold and no OCO links, and
// client ids become unique per user only.
func UpgradeKeepsLegacyOrders(t *testing.T, l Legacy, oldOrder string) {
	ctx := context.Background()
	l.migrateBefore(t, ctx, 10)
	if err := l.Exec(ctx, oldOrder); err != nil {
		t.Fatal(err)
	}
	s := l.open(t, ctx)
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

// UpgradeListsOldBacktestReturns builds a database as it was before
// migration 0046 with two stored runs (insertRun takes the id, the
// creation order i and the report), then opens it: the run is listed with
// the total return of its report; a report without one lists none.
func UpgradeListsOldBacktestReturns(t *testing.T, l Legacy, insertRun string) {
	ctx := context.Background()
	l.migrateBefore(t, ctx, 46)
	for i, res := range []string{`{"total_return":-0.0497,"total_trades":26}`, `{"total_trades":0}`} {
		if err := l.Exec(ctx, insertRun, strconv.Itoa(i), i, res); err != nil {
			t.Fatal(err)
		}
	}
	s := l.open(t, ctx)
	list, err := s.Backtests(ctx, 10)
	if err != nil || len(list) != 2 || list[1].TotalReturn == nil || *list[1].TotalReturn != -0.0497 || list[0].TotalReturn != nil {
		t.Fatalf("%+v %v: want the old run's return, and none for a report without one", list, err)
	}
}

// Exec turns an engine's exec, whatever result it answers, into
// Legacy.Exec.
func Exec[R any](exec func(ctx context.Context, q string, args ...any) (R, error)) func(ctx context.Context, q string, args ...any) error {
	return func(ctx context.Context, q string, args ...any) error {
		_, err := exec(ctx, q, args...)
		return err
	}
}
