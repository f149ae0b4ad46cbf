package natsbus

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
)

// connect reaches the test NATS server (KESTREL_TEST_NATS_URL, default the
// standard local port) or skips.
func connect(t *testing.T) *nats.Conn {
	t.Helper()
	url := os.Getenv("KESTREL_TEST_NATS_URL")
	if url == "" {
		url = nats.DefaultURL
	}
	nc, err := nats.Connect(url, nats.Timeout(2*time.Second))
	if err != nil {
		if os.Getenv("KESTREL_REQUIRE_NATS") == "1" {
			t.Fatalf("NATS required but not reachable at %s: %v", url, err)
		}
		fmt.Printf("SKIP: NATS unreachable at %s: %v\n", url, err)
		t.Skipf("NATS unreachable at %s: %v", url, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func TestBridgeCarriesTypedEventsOnceWithoutEcho(t *testing.T) {
	ncA, ncB := connect(t), connect(t)
	busA, busB := events.NewBus(), events.NewBus()
	cluster := fmt.Sprintf("test%d", time.Now().UnixNano())
	a, err := Start(ncA, busA, cluster, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(ncB, busB, cluster, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	onA := busA.Subscribe(ctx, events.TopicTradeUpdate, 8)
	onB := busB.Subscribe(ctx, events.TopicTradeUpdate, 8)

	px := decimal.RequireFromString("64123.45")
	sent := domain.TradeUpdate{Order: domain.Order{ID: "o-1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit,
		Quantity: decimal.RequireFromString("0.0105"), Price: &px, Status: domain.StatusFilled}}
	at := time.Now()
	busA.Publish(events.TopicTradeUpdate, sent, at)

	if e := <-onA; e.Data.(domain.TradeUpdate).Order.ID != "o-1" {
		t.Fatalf("local subscriber got %+v", e.Data)
	}
	select {
	case e := <-onB:
		got, ok := e.Data.(domain.TradeUpdate)
		if !ok {
			t.Fatalf("other instance got a %T, want domain.TradeUpdate", e.Data)
		}
		if got.Order.ID != "o-1" || !got.Order.Price.Equal(px) || !got.Order.Quantity.Equal(sent.Order.Quantity) {
			t.Fatalf("other instance got %+v, want %+v", got.Order, sent.Order)
		}
		if !e.Time.Equal(at) {
			t.Fatalf("other instance got the event's time %s, want %s", e.Time, at)
		}
	case <-ctx.Done():
		t.Fatal("the other instance never received the trade update")
	}
	// A round trip on A's connection proves its own echo was handled by now.
	if err := ncA.Flush(); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-onA:
		t.Fatalf("publisher received its own event back: %+v", e.Data)
	case <-time.After(200 * time.Millisecond):
	}
	if b.Received.Load() != 1 || a.Received.Load() != 0 {
		t.Fatalf("received: a=%d b=%d, want 0 and 1", a.Received.Load(), b.Received.Load())
	}
}

// A trade update whose notification was committed with it stays marked so
// on the other instances: a leader taking over must not queue it again.
func TestBridgeKeepsJournaled(t *testing.T) {
	ncA, ncB := connect(t), connect(t)
	busA, busB := events.NewBus(), events.NewBus()
	cluster := fmt.Sprintf("test%d", time.Now().UnixNano())
	a, err := Start(ncA, busA, cluster, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Start(ncB, busB, cluster, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	onB := busB.Subscribe(ctx, events.TopicTradeUpdate, 8)
	for _, j := range []bool{true, false} {
		busA.Publish(events.TopicTradeUpdate, domain.TradeUpdate{Order: domain.Order{ID: fmt.Sprint(j), Symbol: "BTC-USD"}, Journaled: j}, time.Now())
		select {
		case e := <-onB:
			if u := e.Data.(domain.TradeUpdate); u.Order.ID != fmt.Sprint(j) || u.Journaled != j {
				t.Fatalf("other instance got %+v, want journaled %v", u, j)
			}
		case <-ctx.Done():
			t.Fatal("the other instance never received the update")
		}
	}
	alerts := busB.Subscribe(ctx, events.TopicAlert, 8)
	for _, j := range []bool{true, false} {
		busA.Publish(events.TopicAlert, domain.Alert{ID: 7, Key: fmt.Sprint(j), Journaled: j}, time.Now())
		select {
		case e := <-alerts:
			if a := e.Data.(domain.Alert); a.Key != fmt.Sprint(j) || a.Journaled != j {
				t.Fatalf("other instance got %+v, want journaled %v", a, j)
			}
		case <-ctx.Done():
			t.Fatal("the other instance never received the alert")
		}
	}
	jobs := busB.Subscribe(ctx, events.TopicJob, 8)
	for _, j := range []bool{true, false} {
		busA.Publish(events.TopicJob, domain.Job{ID: fmt.Sprint(j), Kind: "sweep", Journaled: j}, time.Now())
		select {
		case e := <-jobs:
			if got := e.Data.(domain.Job); got.ID != fmt.Sprint(j) || got.Journaled != j {
				t.Fatalf("other instance got %+v, want journaled %v", got, j)
			}
		case <-ctx.Done():
			t.Fatal("the other instance never received the job")
		}
	}
}
