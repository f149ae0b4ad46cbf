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
	a, isNew, err := s.UpsertAlert(ctx, mk("stale:BTC-USD", "high", "first", at), nil)
	if err != nil || !isNew || a.ID == 0 || a.Count != 1 {
		t.Fatalf("first upsert = %+v, %v, %v", a, isNew, err)
	}
	b, isNew, err := s.UpsertAlert(ctx, mk("stale:BTC-USD", "critical", "again", at.Add(time.Minute)), nil)
	if err != nil || isNew || b.ID != a.ID || b.Count != 2 || b.Message != "again" || b.Severity != "critical" || !b.LastSeen.Equal(at.Add(time.Minute)) {
		t.Fatalf("repeat upsert = %+v, %v, %v (want the same row, count 2)", b, isNew, err)
	}
	if _, _, err := s.UpsertAlert(ctx, mk("stop", "critical", "halted", at.Add(2*time.Minute)), nil); err != nil {
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
	c, isNew, _ := s.UpsertAlert(ctx, mk("stale:BTC-USD", "high", "back", at.Add(4*time.Minute)), nil)
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

// testAlertDismissals: dismissing is per user, is not resolving, and lasts
// until the alert happens again.
func testAlertDismissals(t *testing.T, s domain.Store) {
	ctx := context.Background()
	for _, u := range []domain.User{user("ua", "a@example.com", domain.RoleTrader), user("ub", "b@example.com", domain.RoleOperator)} {
		if err := s.CreateUser(ctx, u, "h", false); err != nil {
			t.Fatal(err)
		}
	}
	raise := func(when time.Time) domain.Alert {
		a, _, err := s.UpsertAlert(ctx, domain.Alert{Key: "stale", Severity: "high", Title: "Stale", Message: "m", Component: "market", CreatedAt: when, LastSeen: when}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	dismissed := func(viewer string) bool {
		t.Helper()
		open := false
		list, err := s.ListAlerts(ctx, domain.AlertFilter{Resolved: &open, Limit: 10, Viewer: viewer})
		if err != nil || len(list) != 1 {
			t.Fatalf("list for %q = %+v, %v", viewer, list, err)
		}
		return list[0].Dismissed
	}
	a := raise(at)
	if dismissed("ua") || dismissed("ub") || dismissed("") {
		t.Fatal("a new alert is dismissed")
	}
	d, err := s.DismissAlert(ctx, a.ID, "ua", at.Add(time.Second))
	if err != nil || !d.Dismissed || d.ID != a.ID || d.Resolved {
		t.Fatalf("dismiss = %+v, %v (want dismissed, still open)", d, err)
	}
	if !dismissed("ua") || dismissed("ub") || dismissed("") {
		t.Fatal("a dismissal by ua must hide the alert for ua only")
	}
	// Again, even with an earlier clock: still dismissed, one row.
	if d, err := s.DismissAlert(ctx, a.ID, "ua", at.Add(-time.Hour)); err != nil || !d.Dismissed {
		t.Fatalf("dismiss again = %+v, %v", d, err)
	}
	_, err = s.DismissAlert(ctx, 999999, "ua", at)
	wantCode(t, err, domain.ENotFound)
	raise(at.Add(time.Minute))
	if dismissed("ua") {
		t.Fatal("the alert happened again after the dismissal and is still hidden")
	}
	if _, err := s.DismissAlert(ctx, a.ID, "ua", at.Add(2*time.Minute)); err != nil || !dismissed("ua") {
		t.Fatalf("dismiss the repeat: %v", err)
	}
	if _, err := s.ResolveAlert(ctx, a.ID, "ops", at.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneAlerts(ctx, at.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("prune a dismissed, resolved alert = %d, %v", n, err)
	}
}

// testAlertNotifyEvent: an alert's notification event commits in the
// alert's own transaction, made from the stored alert (its id and count);
// an upsert whose notify says no commits none.
func testAlertNotifyEvent(t *testing.T, s domain.Store) {
	ctx := context.Background()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var seen domain.Alert
	notify := func(a domain.Alert) (domain.NotifyEvent, bool) {
		seen = a
		if a.Count > 1 {
			return domain.NotifyEvent{}, false
		}
		return domain.NotifyEvent{ID: "evt_alert_1", Type: "trading.emergency_stop", Severity: "critical", Payload: []byte(`{"alert_id":1}`), CreatedAt: a.LastSeen}, true
	}
	a, _, err := s.UpsertAlert(ctx, domain.Alert{Key: "trading:Emergency stop active", Severity: "critical", Title: "Emergency stop active",
		Message: "m", Component: "trading", CreatedAt: at, LastSeen: at}, notify)
	if err != nil {
		t.Fatal(err)
	}
	if seen.ID != a.ID || seen.Count != 1 {
		t.Fatalf("notify saw %+v, the stored alert is %+v", seen, a)
	}
	evs, err := s.CommittedNotifyEvents(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].ID != "evt_alert_1" || evs[0].Type != "trading.emergency_stop" || !evs[0].CreatedAt.Equal(at) {
		t.Fatalf("committed events %+v, %v", evs, err)
	}
	if _, _, err := s.UpsertAlert(ctx, domain.Alert{Key: "trading:Emergency stop active", Severity: "critical", Title: "Emergency stop active",
		Message: "m", Component: "trading", CreatedAt: at, LastSeen: at.Add(time.Minute)}, notify); err != nil {
		t.Fatal(err)
	}
	if evs, err := s.CommittedNotifyEvents(ctx, 10); err != nil || len(evs) != 1 || seen.Count != 2 {
		t.Fatalf("a repeat the notify declined: events %+v, %v, count seen %d", evs, err, seen.Count)
	}
}
