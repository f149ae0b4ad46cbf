package coinbase_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
)

// waitFor polls cond until it holds; the bound only stops a broken test
// from hanging, it is not a performance assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// nextFill waits for the update that carries a fill of order id.
func nextFill(t *testing.T, ups <-chan domain.TradeUpdate, id string) domain.TradeUpdate {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case u := <-ups:
			if u.Order.ID == id && u.Fill != nil {
				return u
			}
		case <-timeout:
			t.Fatalf("no fill update for %s", id)
		}
	}
}

func startStream(t *testing.T, r *rig) (chan bool, context.CancelFunc) {
	sctx, cancel := context.WithCancel(ctx)
	state := make(chan bool, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.x.RunUserStream(sctx, coinbase.StreamConfig{URL: "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/ws", Key: r.key,
			Backoff: 10 * time.Millisecond, OnState: func(up bool) { state <- up }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	return state, cancel
}

// A user-channel message lost in transit shows as a gap in sequence
// numbers; the resync it triggers finds the fill the message carried.
func TestSequenceGapResyncFindsMissedFill(t *testing.T) {
	r := newRig(t, 5*time.Second)
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	if err != nil {
		t.Fatal(err)
	}
	sub, stop := context.WithCancel(ctx)
	defer stop()
	ups := r.x.Updates(sub)
	state, _ := startStream(t, r)
	if !<-state {
		t.Fatal("stream did not connect")
	}
	waitFor(t, "the user subscription", func() bool { return r.fake.Subscribers("user") == 1 })
	r.fake.DropMessages(1)
	r.fake.SetPrice("BTC-USD", "48990") // fills; its user-channel update is lost
	r.fake.Heartbeat(1)                 // the next message reveals the gap
	u := nextFill(t, ups, o.ID)
	if u.Order.Status != domain.StatusFilled || !u.Fill.Quantity.Equal(d("0.1")) || !u.Fill.Price.Equal(d("49000")) {
		t.Fatalf("update %+v fill %+v", u.Order, u.Fill)
	}
}

// A fill made while the connection was down arrives after the reconnect.
func TestReconnectCatchesUpOnFills(t *testing.T) {
	r := newRig(t, 5*time.Second)
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("0.1"), Price: dp("51000")})
	if err == nil || !strings.Contains(domain.ErrorMessage(err), "Insufficient") {
		t.Fatalf("a sell with no BTC: %+v %v", o, err)
	}
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")}); err != nil {
		t.Fatal(err)
	}
	o, err = r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.Limit, Quantity: d("0.1"), Price: dp("51000")})
	if err != nil {
		t.Fatal(err)
	}
	sub, stop := context.WithCancel(ctx)
	defer stop()
	ups := r.x.Updates(sub)
	state, _ := startStream(t, r)
	if !<-state {
		t.Fatal("stream did not connect")
	}
	r.fake.DropMessages(1 << 20) // nothing reaches the client until the reconnect
	r.fake.DropConnections()
	if <-state {
		t.Fatal("expected the drop to be seen")
	}
	r.fake.SetPrice("BTC-USD", "51000")
	r.fake.DropMessages(-(1 << 20))
	u := nextFill(t, ups, o.ID)
	if u.Order.Status != domain.StatusFilled {
		t.Fatalf("update %+v", u.Order)
	}
}

// A message that arrives after a later one (its sequence_num below one
// already seen) is ignored, as Coinbase documents, and not taken for a gap:
// the one real gap it opened costs one resync, not three, and the stream
// goes on without more.
func TestOutOfOrderMessageIsNotAGap(t *testing.T) {
	r := newRig(t, 5*time.Second)
	first, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("49000")})
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("48000")})
	if err != nil {
		t.Fatal(err)
	}
	sub, stop := context.WithCancel(ctx)
	defer stop()
	ups := r.x.Updates(sub)
	state, _ := startStream(t, r)
	if !<-state {
		t.Fatal("stream did not connect")
	}
	// The subscription's snapshot is read back order by order; the second is last.
	waitFor(t, "the snapshot read back", func() bool { return count(r.fake.Requests(), "GET /orders/historical/"+second.ID) == 2 })
	resyncs := func() int { return count(r.fake.Requests(), "GET /orders/historical/batch") }
	before := resyncs()
	r.fake.SwapNext()
	r.fake.SetPrice("BTC-USD", "48990") // fills the first; its update is held back...
	r.fake.Heartbeat(1)                 // ...and arrives after this one: a gap, then a late message
	if u := nextFill(t, ups, first.ID); u.Order.Status != domain.StatusFilled {
		t.Fatalf("first %+v", u.Order)
	}
	r.fake.Heartbeat(2)
	r.fake.SetPrice("BTC-USD", "47990") // fills the second, read back from its own update
	if u := nextFill(t, ups, second.ID); u.Order.Status != domain.StatusFilled {
		t.Fatalf("second %+v", u.Order)
	}
	if n := resyncs() - before; n != 1 {
		t.Fatalf("%d resyncs, want 1 (the gap the held message opened)", n)
	}
}
