package coinbase_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
)

// The adapter's memory is bounded: finished orders, order details and
// client ids by count (least recently used dropped), fill ids by time. A
// forgotten order is still answered (from Coinbase), and no fill is
// reported twice, before or after its id is forgotten.
func TestMemoryIsBounded(t *testing.T) {
	r := newRig(t, 5*time.Second)
	var skew atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	x := coinbase.New(coinbase.Options{Client: r.x.Client(), Remember: 3, SeenFor: time.Hour, Now: clock})
	sub, stop := context.WithCancel(ctx)
	defer stop()
	ups := x.Updates(sub)
	var mu sync.Mutex
	reported := map[string]int{} // fill id -> times reported
	orders := map[string]bool{}  // orders some update was about
	go func() {
		for u := range ups {
			mu.Lock()
			orders[u.Order.ID] = true
			if u.Fill != nil {
				reported[u.Fill.ID]++
			}
			mu.Unlock()
		}
	}()
	fills := func(n int) func() bool {
		return func() bool { mu.Lock(); defer mu.Unlock(); return len(reported) == n }
	}
	buy := func(coid string) domain.Order {
		t.Helper()
		o, err := x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: coid, UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.001")})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	first := buy("m-0")
	for i := 1; i < 8; i++ {
		buy(fmt.Sprint("m-", i))
	}
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	live, closed, meta, clients, seen := coinbase.MemorySizes(x)
	if live != 0 || closed > 3 || meta > 3 || clients > 3 || seen != 8 {
		t.Fatalf("remembers %d live, %d finished, %d details, %d client ids, %d fill ids; want at most 3 of each kind of order and the 8 fills", live, closed, meta, clients, seen)
	}
	waitFor(t, "eight fills reported", fills(8))
	// The first order, forgotten, is read back from Coinbase when asked for
	// again (the same client id: Coinbase answers with it); its fill is known.
	if again := buy("m-0"); again.ID != first.ID || again.Status != domain.StatusFilled {
		t.Fatalf("the first order again: %+v", again)
	}
	buy("m-8")
	waitFor(t, "the ninth fill", fills(9))
	skew.Store(int64(2 * time.Hour)) // every fill is now older than the window
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, seen := coinbase.MemorySizes(x); seen != 0 {
		t.Fatalf("%d fill ids remembered past the window", seen)
	}
	// Forgotten fill ids are history: an order read back reports none again.
	buy("m-1")
	rest, err := x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.001"), Price: dp("1000")})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the resting order's update", func() bool { mu.Lock(); defer mu.Unlock(); return orders[rest.ID] })
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 9 {
		t.Fatalf("%d fills reported, want 9", len(reported))
	}
	for id, n := range reported {
		if n != 1 {
			t.Fatalf("fill %s reported %d times", id, n)
		}
	}
}
