package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
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
	tg := domain.NotifyChannel{ID: "c3", Owner: "u3", Kind: domain.NotifyTelegram, Name: "Chat", Address: "-100123", Secret: "sealed-token", Enabled: true, CreatedAt: at}
	if err := s.CreateNotifyChannel(ctx, tg); err != nil {
		t.Fatal(err)
	}
	if got, err := s.NotifyChannel(ctx, "c3"); err != nil || got != tg {
		t.Fatalf("telegram channel = %+v, %v; want %+v", got, err, tg)
	}
	tg.Address = "@kestrel_alerts"
	if err := s.UpdateNotifyChannel(ctx, tg); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.NotifyChannel(ctx, "c3"); got.Address != "@kestrel_alerts" {
		t.Fatalf("updated address = %+v", got)
	}
	if err := s.DeleteNotifyChannel(ctx, "c3", at); err != nil {
		t.Fatal(err)
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

// NotifyLedgerStore is a store whose ledger commits carry notification events.
type NotifyLedgerStore interface {
	domain.LedgerStore
	domain.NotifyStore
}

// RunNotifyEvents is the contract for events committed with a ledger change
// (LedgerChange.Notify) and their routing: stored with the change or not at
// all, routed once.
func RunNotifyEvents(t *testing.T, s NotifyLedgerStore) {
	ctx := context.Background()
	o := domain.Order{ID: "ne1", ClientOrderID: "ne-c1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: dec("1"),
		FilledQuantity: dec("1"), Fee: dec("0"), Status: domain.StatusFilled, UserID: "u1", CreatedAt: at, UpdatedAt: at}
	ev := domain.NotifyEvent{ID: "evt_1", Type: "order.filled", Severity: domain.SeverityMedium, Owner: "u1", OrderID: "ne1",
		Payload: json.RawMessage(`{"order":{"id":"ne1"}}`), CreatedAt: at}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}, Notify: []domain.NotifyEvent{ev}}); err != nil {
		t.Fatal(err)
	}
	// A refused change (a client order id already used) stores no event.
	dup := o
	dup.ID = "ne2"
	lost := ev
	lost.ID = "evt_2"
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{dup}, Notify: []domain.NotifyEvent{lost}}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("duplicate client id: %v, want conflict", err)
	}
	evs, err := s.CommittedNotifyEvents(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].ID != "evt_1" || evs[0].Owner != "u1" || evs[0].OrderID != "ne1" || !evs[0].CreatedAt.Equal(at) ||
		!jsonEqual(evs[0].Payload, ev.Payload) {
		t.Fatalf("committed events = %+v, %v", evs, err)
	}
	d := domain.NotifyDelivery{ID: "msg_ne1", Owner: "u1", ChannelID: "cne", Type: ev.Type, Severity: ev.Severity, OrderID: "ne1", Payload: ev.Payload,
		Count: 1, CreatedAt: at, NextAt: at}
	if routed, err := s.RouteNotifyEvents(ctx, []domain.NotifyRoute{{EventID: "evt_1", Deliveries: []domain.NotifyDelivery{d}}, {EventID: "evt_unknown"}}); err != nil || routed != 1 {
		t.Fatalf("route = %v, %v", routed, err)
	}
	again := d
	again.ID = "msg_ne1_again"
	if routed, err := s.RouteNotifyEvents(ctx, []domain.NotifyRoute{{EventID: "evt_1", Deliveries: []domain.NotifyDelivery{again}}}); err != nil || routed != 0 {
		t.Fatalf("second route = %v, %v; want not routed", routed, err)
	}
	if evs, err := s.CommittedNotifyEvents(ctx, 10); err != nil || len(evs) != 0 {
		t.Fatalf("events after routing = %+v, %v", evs, err)
	}
	log, err := s.NotifyDeliveries(ctx, "u1", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, got := range log {
		if got.OrderID == "ne1" {
			n++
			if got.ID != "msg_ne1" || got.Status != domain.NotifyPending {
				t.Fatalf("routed delivery = %+v", got)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d deliveries for the event, want 1", n)
	}
	done := at.Add(time.Second)
	d.Status, d.Attempts, d.DeliveredAt = domain.NotifyDelivered, 1, &done
	if err := s.RecordNotifyAttempts(ctx, []domain.NotifyDelivery{d}); err != nil {
		t.Fatal(err)
	}
	log, err = s.NotifyDeliveries(ctx, "u1", domain.NotifyDelivered, 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, got := range log {
		if got.ID == "msg_ne1" {
			found = got.Attempts == 1 && got.DeliveredAt != nil && got.DeliveredAt.Equal(done)
		}
	}
	if !found {
		t.Fatalf("after RecordNotifyAttempts: %+v", log)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// RunVenueFills is the contract for the fills of an outside venue: each
// fill's event is committed once however often (and by however many
// committers at once) it is seen, with the venue's checkpoint, which never
// moves back; forgotten fills can be committed again.
func RunVenueFills(t *testing.T, s domain.NotifyStore) {
	ctx := context.Background()
	if mark, err := s.VenueFillMark(ctx, "coinbase"); err != nil || !mark.IsZero() {
		t.Fatalf("mark before any = %v, %v", mark, err)
	}
	vf := func(id string, made time.Time) domain.VenueFill {
		return domain.VenueFill{ID: id, Time: made, Event: domain.NotifyEvent{ID: "evt_cb_" + id, Type: "order.filled", Severity: domain.SeverityMedium,
			Owner: "u1", OrderID: "o-" + id, Payload: json.RawMessage(`{"fill":{"id":"` + id + `"}}`), CreatedAt: made}}
	}
	commit := func(f domain.VenueFills, want int) {
		t.Helper()
		if n, err := s.CommitVenueFills(ctx, f); err != nil || n != want {
			t.Fatalf("commit %+v = %d, %v; want %d new", f, n, err, want)
		}
	}
	events := func() map[string]bool {
		t.Helper()
		evs, err := s.CommittedNotifyEvents(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, e := range evs {
			out[e.ID] = true
		}
		return out
	}
	m1 := at.Add(time.Hour)
	commit(domain.VenueFills{Venue: "coinbase", Fills: []domain.VenueFill{vf("f1", at), vf("f2", at.Add(time.Minute))}, Mark: m1}, 2)
	if got := events(); !got["evt_cb_f1"] || !got["evt_cb_f2"] || len(got) != 2 {
		t.Fatalf("events after the first commit: %v", got)
	}
	// Routed (the event is gone) and seen again: still not queued twice.
	if _, err := s.RouteNotifyEvents(ctx, []domain.NotifyRoute{{EventID: "evt_cb_f1"}}); err != nil {
		t.Fatal(err)
	}
	commit(domain.VenueFills{Venue: "coinbase", Fills: []domain.VenueFill{vf("f1", at), vf("f3", at.Add(2*time.Minute))}, Mark: at}, 1)
	if got := events(); got["evt_cb_f1"] || !got["evt_cb_f3"] {
		t.Fatalf("events after seeing f1 again: %v", got)
	}
	if mark, err := s.VenueFillMark(ctx, "coinbase"); err != nil || !mark.Equal(m1) {
		t.Fatalf("mark = %v, %v; want %v (it never moves back)", mark, err, m1)
	}
	// Another venue's fill of the same id is its own.
	commit(domain.VenueFills{Venue: "other", Fills: []domain.VenueFill{{ID: "f1", Time: at, Event: domain.NotifyEvent{ID: "evt_other_f1", Type: "order.filled",
		Severity: domain.SeverityMedium, Payload: json.RawMessage(`{}`), CreatedAt: at}}}}, 1)
	if mark, err := s.VenueFillMark(ctx, "other"); err != nil || !mark.IsZero() {
		t.Fatalf("other's mark = %v, %v; a commit without one sets none", mark, err)
	}
	// Two committers of one fill at once: one queues it.
	var wg sync.WaitGroup
	var queued atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := s.CommitVenueFills(ctx, domain.VenueFills{Venue: "coinbase", Fills: []domain.VenueFill{vf("f4", at.Add(3*time.Minute))}})
			if err != nil {
				t.Error(err)
			}
			queued.Add(int64(n))
		}()
	}
	wg.Wait()
	if queued.Load() != 1 {
		t.Fatalf("f4 committed at once by 4: queued %d times, want 1", queued.Load())
	}
	// Forgotten fills (made before Forget) are no longer known.
	if _, err := s.RouteNotifyEvents(ctx, []domain.NotifyRoute{{EventID: "evt_cb_f2"}}); err != nil {
		t.Fatal(err)
	}
	commit(domain.VenueFills{Venue: "coinbase", Forget: at.Add(90 * time.Second)}, 0)
	commit(domain.VenueFills{Venue: "coinbase", Fills: []domain.VenueFill{vf("f2", at.Add(time.Minute)), vf("f3", at.Add(2*time.Minute))}}, 1)
	if got := events(); !got["evt_cb_f2"] {
		t.Fatalf("a forgotten fill seen again is queued again: %v", got)
	}
}
