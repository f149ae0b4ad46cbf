package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// RunAlerts is the contract for domain.AlertStore.
func RunAlerts(t *testing.T, s domain.AlertStore) {
	ctx := context.Background()
	mk := func(key, sev, msg string, when time.Time) domain.Alert {
		return domain.Alert{Key: key, Severity: sev, Title: "T " + key, Message: msg, Component: "test", CreatedAt: when, LastSeen: when}
	}
	a, isNew, err := s.UpsertAlert(ctx, mk("stale:BTC-USD", "high", "first", at))
	if err != nil || !isNew || a.ID == 0 || a.Count != 1 {
		t.Fatalf("first upsert = %+v, %v, %v", a, isNew, err)
	}
	b, isNew, err := s.UpsertAlert(ctx, mk("stale:BTC-USD", "critical", "again", at.Add(time.Minute)))
	if err != nil || isNew || b.ID != a.ID || b.Count != 2 || b.Message != "again" || b.Severity != "critical" || !b.LastSeen.Equal(at.Add(time.Minute)) {
		t.Fatalf("repeat upsert = %+v, %v, %v (want the same row, count 2)", b, isNew, err)
	}
	if _, _, err := s.UpsertAlert(ctx, mk("stop", "critical", "halted", at.Add(2*time.Minute))); err != nil {
		t.Fatal(err)
	}
	unresolved := false
	list, err := s.ListAlerts(ctx, domain.AlertFilter{Resolved: &unresolved, Limit: 10})
	if err != nil || len(list) != 2 || list[0].Key != "stop" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	r, err := s.ResolveAlert(ctx, a.ID, "ops@example.com", at.Add(3*time.Minute))
	if err != nil || !r.Resolved || r.ResolvedBy != "ops@example.com" || r.ResolvedAt == nil {
		t.Fatalf("resolve = %+v, %v", r, err)
	}
	if _, err := s.ResolveAlert(ctx, 999999, "x", at); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("resolve missing = %v, want not_found", err)
	}
	c, isNew, _ := s.UpsertAlert(ctx, mk("stale:BTC-USD", "high", "back", at.Add(4*time.Minute)))
	if !isNew || c.ID == a.ID {
		t.Fatalf("after resolution the same key must open a new alert: %+v", c)
	}
	crit, _ := s.ListAlerts(ctx, domain.AlertFilter{Severity: "critical", Limit: 10})
	if len(crit) != 2 {
		t.Fatalf("critical alerts = %d, want 2 (the resolved one and stop)", len(crit))
	}
	if n, err := s.PruneAlerts(ctx, at.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("prune = %d, %v (only resolved alerts go)", n, err)
	}
}
