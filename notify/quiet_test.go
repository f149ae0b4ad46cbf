package notify_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/notify"
)

// Quiet hours hold a fill until they end (two fills become one message
// with a count); a critical event (the emergency stop) goes out at once.
func TestQuietHoursHoldAllButCriticalEvents(t *testing.T) {
	ctx := context.Background()
	rcv := newReceiver(t)
	f := newFixture(t, t.TempDir())
	f.clock.t = time.Date(2026, 5, 1, 21, 30, 0, 0, time.UTC) // 23:30 in Berlin (summer time)
	ch := f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled, notify.EmergencyStop)
	r, err := f.svc.Routing(ctx, "u1")
	mustNil(t, err)
	r.QuietFrom, r.QuietTo, r.QuietTimezone, r.Aggregate, r.AggregateSeconds = "22:00", "07:00", "Europe/Berlin", true, 5
	_, err = f.svc.SetRouting(ctx, "u1", r)
	mustNil(t, err)

	enqueueFill(t, f, 0)
	enqueueFill(t, f, 1)
	stop, _ := notify.FromAlert(domain.Alert{Key: "trading:Emergency stop active", Severity: domain.SeverityCritical, Component: "trading", Title: "Emergency stop active", Count: 1, LastSeen: f.clock.Now()})
	_, err = f.svc.Enqueue(ctx, stop)
	mustNil(t, err)
	f.clock.Add(10 * time.Second) // past the aggregation window, inside the quiet hours
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	if got := rcv.all(); len(got) != 1 || !strings.Contains(string(got[0].body), notify.EmergencyStop) {
		t.Fatalf("during the quiet hours: %d messages, want the emergency stop only", len(got))
	}
	pending, err := f.svc.Deliveries(ctx, "u1", domain.NotifyPending, 10)
	mustNil(t, err)
	end := time.Date(2026, 5, 2, 5, 0, 0, 0, time.UTC) // 07:00 Berlin
	if len(pending) != 1 || pending[0].Count != 2 || !pending[0].NextAt.Equal(end) || pending[0].ChannelID != ch {
		t.Fatalf("held: %+v", pending)
	}
	f.clock.t = end
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	got := rcv.all()
	if len(got) != 2 {
		t.Fatalf("after the quiet hours: %d messages", len(got))
	}
	var m notify.Message
	mustNil(t, json.Unmarshal(got[1].body, &m))
	if m.Type != notify.OrderFilled || m.Count != 2 {
		t.Fatalf("the held fills: %+v", m)
	}

	r.QuietFrom, r.QuietTo, r.QuietTimezone = "25:00", "", "Mars/Olympus"
	_, err = f.svc.SetRouting(ctx, "u1", r)
	var de *domain.Error
	if !asDomainError(err, &de) || de.Fields["quiet_from"] == "" || de.Fields["quiet_to"] == "" || de.Fields["quiet_timezone"] == "" {
		t.Fatalf("bad quiet hours: %v", err)
	}
}

// The ui.notifications switches: Trades off stops order events for that
// user; Email off fails an email channel's messages, saying why.
func TestNotificationSwitchesDriveRouting(t *testing.T) {
	ctx := context.Background()
	rcv := newReceiver(t)
	f := newFixture(t, t.TempDir())
	flags := notify.AllOn
	svc := notify.New(f.store, f.sealer, f.clock, notify.Options{Servers: loopbackAllowed, Flags: func(context.Context, string) (notify.Flags, error) { return flags, nil }})
	f.svc = svc
	f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled, notify.SystemAlert)
	flags.Trades = false
	enqueueFill(t, f, 0)
	sys, _ := notify.FromAlert(domain.Alert{Key: "database:slow", Component: "database", Severity: domain.SeverityHigh, Title: "Database slow", Count: 1, LastSeen: f.clock.Now()})
	_, err := svc.Enqueue(ctx, sys)
	mustNil(t, err)
	log, err := svc.Deliveries(ctx, "u1", "", 10)
	mustNil(t, err)
	if len(log) != 1 || log[0].Type != notify.SystemAlert {
		t.Fatalf("with Trades off: %+v", log)
	}

	flags.Email = false
	kind := domain.NotifyEmail
	ch, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("Inbox"), Address: ptr("me@example.com")})
	mustNil(t, err)
	d, err := svc.SendTest(ctx, ch.NotifyChannel)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || !strings.Contains(d.LastError, "email notifications are off") {
		t.Fatalf("email with Email off: %+v", d)
	}
}
