package events

import (
	"context"
	"testing"
	"time"
)

func TestSlowSubscriberDoesNotBlockOthers(t *testing.T) {
	b := NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := b.Subscribe(ctx, "t", 1) // never read
	fast := b.Subscribe(ctx, "t", 100)
	_ = slow
	for i := 0; i < 50; i++ {
		b.Publish("t", i, time.Time{})
	}
	for i := 0; i < 50; i++ {
		if e := <-fast; e.Data.(int) != i {
			t.Fatalf("event %d = %v", i, e.Data)
		}
	}
	if got := b.Dropped(); got != 49 {
		t.Fatalf("dropped = %d, want 49 (the slow subscriber's overflow)", got)
	}
}

func TestUnsubscribeOnCancel(t *testing.T) {
	b := NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	ch := b.Subscribe(ctx, "t", 1)
	cancel()
	if _, open := <-ch; open {
		t.Fatal("channel should close after cancel")
	}
	b.Publish("t", 1, time.Time{}) // must not panic on a closed channel
}

func TestRelaySeesLocalPublishesOnly(t *testing.T) {
	b := NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := b.Subscribe(ctx, "t", 4)
	var relayed []any
	b.SetRelay(func(e Event) { relayed = append(relayed, e.Data) })
	b.Publish("t", "local", time.Time{})
	b.Deliver(Event{Topic: "t", Data: "remote"})
	if a, c := (<-ch).Data, (<-ch).Data; a != "local" || c != "remote" {
		t.Fatalf("subscriber got %v, %v; want local, remote", a, c)
	}
	if len(relayed) != 1 || relayed[0] != "local" {
		t.Fatalf("relayed %v, want only the local event (a delivered one must not echo back)", relayed)
	}
}
