package postgres_test

import (
	"context"
	"testing"

	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/storetest"
)

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
	storetest.RunPortfolio(t, func(t *testing.T) domain.PortfolioStore {
		s, err := postgres.Open(context.Background(), pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestAlertsContract(t *testing.T) {
	s, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunAlerts(t, s)
}

func TestLedgerContract(t *testing.T) {
	s, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunLedger(t, s)
}

func TestLogsContract(t *testing.T) {
	s, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunLogs(t, s)
}
