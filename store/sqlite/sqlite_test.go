package sqlite_test

import (
	"context"
	"path/filepath"
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
	storetest.RunPortfolio(t, func(t *testing.T) domain.PortfolioStore {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestAlertsContract(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunAlerts(t, s)
}

func TestLedgerContract(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunLedger(t, s)
}

func TestLogsContract(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunLogs(t, s)
}
