package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// RunLogs checks the persisted log contract.
func RunLogs(t *testing.T, s domain.LogStore) {
	ctx := context.Background()
	entries := []domain.LogEntry{
		{Time: at, Level: "WARNING", Component: "trading", Message: "refused", Attrs: map[string]string{"symbol": "BTC-USD"}},
		{Time: at.Add(time.Minute), Level: "ERROR", Component: "store", Message: "write failed"},
		{Time: at.Add(2 * time.Minute), Level: "WARNING", Component: "store", Message: "slow"},
	}
	if err := s.AppendLogs(ctx, entries); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListLogs(ctx, domain.LogFilter{Limit: 10})
	if err != nil || len(all) != 3 || all[0].Message != "slow" || !all[2].Time.Equal(at) || all[2].Attrs["symbol"] != "BTC-USD" {
		t.Fatalf("ListLogs = %+v, %v (want 3, newest first, attrs kept)", all, err)
	}
	errs, _ := s.ListLogs(ctx, domain.LogFilter{Levels: []string{"ERROR", "CRITICAL"}, Limit: 10})
	if len(errs) != 1 || errs[0].Message != "write failed" {
		t.Fatalf("level filter = %+v", errs)
	}
	store, _ := s.ListLogs(ctx, domain.LogFilter{Component: "store", Before: at.Add(2 * time.Minute), Limit: 10})
	if len(store) != 1 || store[0].Message != "write failed" {
		t.Fatalf("component + before filter = %+v", store)
	}
	if n, err := s.PruneLogs(ctx, at.Add(90*time.Second)); err != nil || n != 2 {
		t.Fatalf("PruneLogs = %d, %v (want 2)", n, err)
	}
	left, _ := s.ListLogs(ctx, domain.LogFilter{Limit: 10})
	if len(left) != 1 {
		t.Fatalf("after prune %+v", left)
	}
}
