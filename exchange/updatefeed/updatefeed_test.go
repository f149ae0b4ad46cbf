package updatefeed

import (
	"context"
	"testing"

	"kestrel/domain"
)

func TestEveryReceiverGetsEveryUpdateInOrder(t *testing.T) {
	var f Feed
	ctx, cancel := context.WithCancel(context.Background())
	a, b := f.Subscribe(ctx), f.Subscribe(context.Background())
	if f.Receivers() != 2 {
		t.Fatalf("receivers %d, want 2", f.Receivers())
	}
	f.Tell([]domain.TradeUpdate{{Order: domain.Order{ID: "1"}}, {Order: domain.Order{ID: "2"}}})
	for _, ch := range []<-chan domain.TradeUpdate{a, b} {
		if x, y := <-ch, <-ch; x.Order.ID != "1" || y.Order.ID != "2" {
			t.Fatalf("got %s, %s; want 1, 2", x.Order.ID, y.Order.ID)
		}
	}
	cancel()
	if _, open := <-a; open {
		t.Fatal("a receiver's channel stays open after its ctx ended")
	}
	if f.Receivers() != 1 {
		t.Fatalf("receivers %d after one left, want 1", f.Receivers())
	}
}
