package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"kestrel/domain"
)

// RunNotify is the contract for domain.NotifyStore.
func RunNotify(t *testing.T, s domain.NotifyStore) {
	ctx := context.Background()
	ch := domain.NotifyChannel{ID: "c1", Owner: "u1", Kind: "webhook", Name: "Hook", URL: "https://example.com/h", Secret: "sealed", Enabled: true, CreatedAt: at}
	if err := s.CreateNotifyChannel(ctx, ch); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateNotifyChannel(ctx, domain.NotifyChannel{ID: "c2", Owner: "u2", Kind: "webhook", Name: "Other", URL: "http://127.0.0.1/x", CreatedAt: at.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.NotifyChannel(ctx, "c1")
	if err != nil || got != ch {
		t.Fatalf("channel = %+v, %v; want %+v", got, err, ch)
	}
	_, err = s.NotifyChannel(ctx, "nope")
	wantCode(t, err, domain.ENotFound)
	if l, _ := s.NotifyChannels(ctx, "u1"); len(l) != 1 || l[0].ID != "c1" {
		t.Fatalf("u1 channels = %+v", l)
	}
	if l, _ := s.NotifyChannels(ctx, ""); len(l) != 2 {
		t.Fatalf("all channels = %+v", l)
	}
	ch.Name, ch.Enabled = "Renamed", false
	if err := s.UpdateNotifyChannel(ctx, ch); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.NotifyChannel(ctx, "c1"); got.Name != "Renamed" || got.Enabled {
		t.Fatalf("updated channel = %+v", got)
	}
	wantCode(t, s.UpdateNotifyChannel(ctx, domain.NotifyChannel{ID: "nope"}), domain.ENotFound)

	// Routing: absent, stored, listed.
	if _, found, err := s.NotifyRouting(ctx, "u1"); found || err != nil {
		t.Fatalf("routing before put: found %v, %v", found, err)
	}
	r := domain.NotifyRouting{Owner: "u1", Routes: map[string][]string{"order.filled": {"c1"}}, MinSeverity: "low", Aggregate: true, AggregateSeconds: 5}
	if err := s.PutNotifyRouting(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.MinSeverity = "medium"
	if err := s.PutNotifyRouting(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got, found, err := s.NotifyRouting(ctx, "u1"); !found || err != nil || got.MinSeverity != "medium" || got.Routes["order.filled"][0] != "c1" || !got.Aggregate {
		t.Fatalf("routing = %+v, %v, %v", got, found, err)
	}
	if all, _ := s.NotifyRoutings(ctx); len(all) != 1 || all[0].Owner != "u1" {
		t.Fatalf("routings = %+v", all)
	}

	// Outbox: enqueue, aggregate while unattempted and inside the window.
	d := domain.NotifyDelivery{ID: "m1", Owner: "u1", ChannelID: "c1", Type: "order.filled", Severity: "low", OrderID: "o1",
		Payload: json.RawMessage(`{"order_id":"o1"}`), AggregateKey: "order.filled", CreatedAt: at, NextAt: at.Add(5 * time.Second)}
	if ins, err := s.EnqueueNotify(ctx, d); !ins || err != nil {
		t.Fatalf("enqueue = %v, %v", ins, err)
	}
	d2 := d
	d2.ID, d2.CreatedAt = "m2", at.Add(time.Second)
	if ins, err := s.EnqueueNotify(ctx, d2); ins || err != nil {
		t.Fatalf("aggregated enqueue = %v, %v (want folded)", ins, err)
	}
	if due, _ := s.DueNotify(ctx, at.Add(4*time.Second), 10); len(due) != 0 {
		t.Fatalf("due before the window ends = %+v", due)
	}
	due, err := s.DueNotify(ctx, at.Add(5*time.Second), 10)
	if err != nil || len(due) != 1 || due[0].ID != "m1" || due[0].Count != 2 || due[0].OrderID != "o1" || due[0].Status != domain.NotifyPending {
		t.Fatalf("due = %+v, %v", due, err)
	}
	// A failed attempt: a later event starts a new row (the first keeps its id).
	m := due[0]
	m.Attempts, m.LastError, m.NextAt = 1, "HTTP 500", at.Add(time.Minute)
	if err := s.RecordNotifyAttempt(ctx, m); err != nil {
		t.Fatal(err)
	}
	d3 := d
	d3.ID, d3.CreatedAt = "m3", at.Add(2*time.Second)
	if ins, err := s.EnqueueNotify(ctx, d3); !ins || err != nil {
		t.Fatalf("enqueue after an attempt = %v, %v (want a new row)", ins, err)
	}
	delivered := at.Add(time.Minute)
	m.Status, m.Attempts, m.LastError, m.DeliveredAt = domain.NotifyDelivered, 2, "", &delivered
	if err := s.RecordNotifyAttempt(ctx, m); err != nil {
		t.Fatal(err)
	}
	log, err := s.NotifyDeliveries(ctx, "u1", "", 10)
	if err != nil || len(log) != 2 || log[0].ID != "m3" || log[1].Status != domain.NotifyDelivered || log[1].Attempts != 2 || !log[1].DeliveredAt.Equal(delivered) {
		t.Fatalf("deliveries = %+v, %v", log, err)
	}
	if log, _ := s.NotifyDeliveries(ctx, "u2", "", 10); len(log) != 0 {
		t.Fatalf("u2 sees %+v", log)
	}
	// Deleting the channel fails what is still pending.
	if err := s.DeleteNotifyChannel(ctx, "c1", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.DeleteNotifyChannel(ctx, "c1", at), domain.ENotFound)
	if failed, _ := s.NotifyDeliveries(ctx, "", domain.NotifyFailed, 10); len(failed) != 1 || failed[0].ID != "m3" || failed[0].LastError != "channel deleted" {
		t.Fatalf("failed after delete = %+v", failed)
	}
}
