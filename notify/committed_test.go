package notify_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/alert"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/sandbox"
	"kestrel/jobs"
	"kestrel/notify"
)

// flatPrices quotes every symbol at one price.
type flatPrices struct{ at time.Time }

func (p flatPrices) Ticker(symbol string) (domain.Ticker, error) {
	px := decimal.NewFromInt(100)
	return domain.Ticker{Symbol: symbol, Price: px, Bid: px, Ask: px, Time: p.at}, nil
}

// A fill and its notification commit together: the process "dies" right
// after the order's commit, before anything routed or sent it (the store is
// closed with nothing else run, as kill -9 would leave it), and after the
// restart the message is delivered, once, even with two routers racing.
func TestAFillsNotificationSurvivesACrashAfterItsCommit(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	f := newFixture(t, dir)
	chID := f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled)

	opt := sandbox.DefaultOptions(candles.Products())
	opt.Clock, opt.NotifyEvent = f.clock, notify.Committed
	sb, err := sandbox.New(context.Background(), f.store, flatPrices{f.clock.Now()}, opt)
	mustNil(t, err)
	o, err := sb.PlaceOrder(context.Background(), domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market,
		Quantity: decimal.RequireFromString("0.01"), UserID: "u1"})
	mustNil(t, err)
	if o.Status != domain.StatusFilled {
		t.Fatalf("market buy: %+v", o)
	}
	f.store.Close() // the crash: nothing after the commit ran

	g := newFixture(t, dir)
	var wg sync.WaitGroup
	for range 2 { // two routers (say, an old leader and a new one): each event routed once
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := g.svc.RouteCommitted(context.Background())
			mustNil(t, err)
		}()
	}
	wg.Wait()
	for range 2 {
		_, err = g.svc.DeliverDue(context.Background())
		mustNil(t, err)
	}
	got := rcv.all()
	if len(got) != 1 {
		t.Fatalf("received %d messages after the restart, want 1", len(got))
	}
	verify(t, f.secret, got[0])
	var m notify.Message
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m.Type != notify.OrderFilled || m.OrderID != o.ID || m.ID != got[0].id {
		t.Fatalf("message %+v for order %s", m, o.ID)
	}
	log, err := g.svc.Deliveries(context.Background(), "u1", "", 10)
	mustNil(t, err)
	if len(log) != 1 || log[0].ChannelID != chID || log[0].Status != domain.NotifyDelivered {
		t.Fatalf("delivery log %+v", log)
	}
	if left, err := g.store.CommittedNotifyEvents(context.Background(), 10); err != nil || len(left) != 0 {
		t.Fatalf("events left after routing: %+v, %v", left, err)
	}
}

// An update whose event was committed with it is marked Journaled, so the
// bus listener does not queue it a second time; an unjournaled one (e.g. a
// sandbox fill of an owner not yet known to route order events) it queues.
func TestJournaledUpdatesAreNotQueuedFromTheBus(t *testing.T) {
	f := newFixture(t, t.TempDir())
	f.addChannel(t, "http://127.0.0.1:9/hook", 0, notify.OrderFilled)
	bus := events.NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.svc.Listen(ctx, bus); close(done) }()
	defer func() { cancel(); <-done }()
	// Until Listen has subscribed, events are lost: publish pairs until an
	// unjournaled fill is queued; no journaled one may be.
	journaled := fill(0, f.clock.Now())
	journaled.Journaled = true
	for n := 1; ; n++ {
		bus.Publish(events.TopicTradeUpdate, journaled, time.Now())
		bus.Publish(events.TopicTradeUpdate, fill(n, f.clock.Now()), time.Now())
		time.Sleep(10 * time.Millisecond)
		log, err := f.svc.Deliveries(context.Background(), "u1", "", 1000)
		mustNil(t, err)
		for _, d := range log {
			if d.OrderID == journaled.Order.ID {
				t.Fatalf("the journaled fill was queued from the bus: %+v", d)
			}
		}
		if len(log) > 0 {
			return
		}
		if n == 500 {
			t.Fatal("no unjournaled fill was queued")
		}
	}
}

// Only the fills of users who route an order event anywhere are committed
// with an event; a new route counts at once.
func TestOnlyListenersFillsAreCommitted(t *testing.T) {
	f := newFixture(t, t.TempDir())
	u := fill(0, f.clock.Now())
	if _, ok := f.svc.Committed(u); !ok {
		t.Fatal("before who listens is known, every fill is committed")
	}
	mustNil(t, f.svc.LoadListening(context.Background()))
	if _, ok := f.svc.Committed(u); ok {
		t.Fatal("u1 routes nothing yet")
	}
	ch := f.addChannel(t, "http://127.0.0.1:9/hook", 0, notify.SystemAlert)
	_, err := f.svc.SetRouting(context.Background(), "u1", domain.NotifyRouting{Routes: map[string][]string{notify.OrderFilled: {ch}}, MinSeverity: domain.SeverityLow})
	mustNil(t, err)
	if _, ok := f.svc.Committed(u); !ok {
		t.Fatal("u1 routes order.filled now")
	}
}

// 200 fills committed in one second and routed in batches become one
// message with count 200 when aggregation is on.
func TestCommittedBurstIsOneMessage(t *testing.T) {
	ctx := context.Background()
	rcv := newReceiver(t)
	f := newFixture(t, t.TempDir())
	f.addChannel(t, rcv.srv.URL, 5, notify.OrderFilled)
	var evs []domain.NotifyEvent
	for i := range 200 {
		e, ok := notify.Committed(fill(i, f.clock.Now().Add(time.Duration(i)*5*time.Millisecond)))
		if !ok {
			t.Fatal("a fill has an event")
		}
		evs = append(evs, e)
	}
	mustNil(t, f.store.ApplyLedger(ctx, domain.LedgerChange{Notify: evs[:150]}))
	mustNil(t, f.store.ApplyLedger(ctx, domain.LedgerChange{Notify: evs[150:]}))
	n, err := f.svc.RouteCommitted(ctx)
	mustNil(t, err)
	if n != 200 {
		t.Fatalf("routed %d", n)
	}
	f.clock.Add(6 * time.Second)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	got := rcv.all()
	if len(got) != 1 {
		t.Fatalf("%d messages, want 1", len(got))
	}
	var m notify.Message
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m.Count != 200 || m.Type != notify.OrderFilled {
		t.Fatalf("message %+v", m)
	}
}

// An alert and its notification commit together: an emergency stop raised
// just before a crash (nothing routed or sent it) is delivered after the
// restart, once; its repeat, merged into the open alert, makes no second
// event.
func TestAnAlertsNotificationSurvivesACrashAfterItsCommit(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	f := newFixture(t, dir)
	f.addChannel(t, rcv.srv.URL, 0, notify.EmergencyStop)

	bus := events.NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	published := bus.Subscribe(ctx, events.TopicAlert, 4)
	alerts := alert.New(f.store, bus, f.clock)
	alerts.OnRaise(notify.CommittedAlert)
	alerts.Raise(ctx, "trading:Emergency stop active", "critical", "trading", "Emergency stop active", "All trading halted by ops")
	if a := (<-published).Data.(domain.Alert); !a.Journaled {
		t.Fatalf("the published alert %+v is not marked as committed with its event", a)
	}
	if evs, err := f.store.CommittedNotifyEvents(ctx, 10); err != nil || len(evs) != 1 || evs[0].Type != notify.EmergencyStop {
		t.Fatalf("committed events %+v, %v", evs, err)
	}
	f.store.Close() // the crash: nothing after the commit ran

	g := newFixture(t, dir)
	_, err := g.svc.RouteCommitted(context.Background())
	mustNil(t, err)
	_, err = g.svc.DeliverDue(context.Background())
	mustNil(t, err)
	got := rcv.all()
	if len(got) != 1 {
		t.Fatalf("received %d messages after the restart, want 1", len(got))
	}
	var m notify.Message
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m.Type != notify.EmergencyStop {
		t.Fatalf("message %+v", m)
	}
}

// A finished job and its notification commit together: a sweep that ends
// just before a crash is notified after the restart, once; the job the
// runner publishes says its event was committed (so the bus adds none).
func TestAJobsNotificationSurvivesACrashAfterItsEnd(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	f := newFixture(t, dir)
	f.addChannel(t, rcv.srv.URL, 0, notify.BacktestFinished)

	published := make(chan domain.Job, 8)
	r := jobs.New(f.store, jobs.Options{Workers: 1, Poll: 20 * time.Millisecond, Clock: f.clock,
		Publish: func(j domain.Job) { published <- j }, NotifyEvent: notify.CommittedJob})
	r.Handle("sweep", func(context.Context, domain.Job, func(float64)) (string, error) { return "sweep-report", nil })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	j, err := r.Submit(ctx, "sweep", "u1", map[string]int{"trials": 4})
	mustNil(t, err)
	var last domain.Job
	for last.Status != domain.JobCompleted {
		select {
		case last = <-published:
		case <-time.After(10 * time.Second):
			t.Fatalf("the sweep did not complete: %+v", last)
		}
	}
	cancel()
	<-done
	if last.ID != j.ID || !last.Journaled {
		t.Fatalf("published %+v: want the sweep, marked as committed with its event", last)
	}
	f.store.Close() // the crash: nothing routed or sent the event

	g := newFixture(t, dir)
	_, err = g.svc.RouteCommitted(context.Background())
	mustNil(t, err)
	_, err = g.svc.DeliverDue(context.Background())
	mustNil(t, err)
	got := rcv.all()
	if len(got) != 1 {
		t.Fatalf("received %d messages after the restart, want 1", len(got))
	}
	var m struct {
		Type string
		Data notify.JobData
	}
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m.Type != notify.BacktestFinished || m.Data.JobID != j.ID || m.Data.Kind != "sweep" || m.Data.Status != domain.JobCompleted {
		t.Fatalf("message %s", got[0].body)
	}
}
