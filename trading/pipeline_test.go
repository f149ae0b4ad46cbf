package trading_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Orders still being journaled count against the limits: concurrent
// orders cannot race past the daily trade limit or the position size.
func TestConcurrentOrdersCannotRacePastLimits(t *testing.T) {
	d := newDesk(t)
	d.policy.Limits.MaxDailyTrades = 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	placed, refused := 0, 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := limit("BTC-USD", domain.Buy, "0.001", "40000")
			req.ClientOrderID = fmt.Sprint("c", i)
			_, _, err := d.svc.Place(context.Background(), req)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				placed++
			case domain.ErrorCode(err) == domain.ERejected:
				refused++
			default:
				t.Errorf("order %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if placed != 5 || refused != 15 {
		t.Fatalf("%d placed, %d refused; want 5 and 15 (daily limit 5)", placed, refused)
	}

	// Position size: resting BUYs count as exposure the moment they are in the book.
	d2 := newDesk(t)
	d2.policy.Limits.MaxPositionSize = decimal.RequireFromString("0.1") // 10,000 of 100,000
	placed = 0
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := d2.svc.Place(context.Background(), limit("ETH-USD", domain.Buy, "1", "2000")); err == nil {
				mu.Lock()
				placed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if placed != 5 { // 5 x 2,000 = 10,000
		t.Fatalf("%d resting BUYs of 2,000 placed under a 10,000 position limit, want 5", placed)
	}
}
