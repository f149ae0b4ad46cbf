package strategy_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/strategy"
)

// The engine loop, the Test AI action and the prompt preview may evaluate
// one instance at once; under -race this fails if the streaming indicator
// state is shared unguarded, and the answers must not depend on the timing.
func TestOneInstanceEvaluatedConcurrently(t *testing.T) {
	tech := strategy.NewTechnical(*strategy.DefaultIndicators())
	quick := tech.(strategy.QuickDecider)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cs := make([]domain.Candle, 120)
	for i := range cs {
		px := decimal.NewFromInt(int64(100 + (i*7)%23))
		cs[i] = domain.Candle{Time: start.Add(time.Duration(i) * time.Hour), Open: px, High: px, Low: px, Close: px, Volume: decimal.NewFromInt(1)}
	}
	want, err := strategy.NewTechnical(*strategy.DefaultIndicators()).Evaluate(context.Background(), strategy.Input{Symbol: "BTC-USD", Candles: cs})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if g%2 == 0 {
					got, err := tech.Evaluate(context.Background(), strategy.Input{Symbol: "BTC-USD", Candles: cs})
					if err != nil || got.Decision != want.Decision || got.Confidence != want.Confidence {
						t.Errorf("Evaluate = %s %v, %v; want %s %v", got.Decision, got.Confidence, err, want.Decision, want.Confidence)
						return
					}
				} else if d, _ := quick.QuickDecide("BTC-USD", cs); d != want.Decision {
					t.Errorf("QuickDecide = %s, want %s", d, want.Decision)
					return
				}
			}
		}()
	}
	wg.Wait()
}
