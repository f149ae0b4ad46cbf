package backtest_test

import (
	"context"
	"errors"
	"testing"

	"kestrel/backtest"
)

// Progress rises with the candles done; a cancelled context stops the run.
func TestProgressAndCancel(t *testing.T) {
	var seen []float64
	req := request(&script{}, flat(101), nil)
	req.Progress = func(p float64) { seen = append(seen, p) }
	if _, err := backtest.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 100 || seen[0] != 0 || seen[99] != 0.99 {
		t.Fatalf("progress %d reports, first %v, last %v", len(seen), seen[0], seen[len(seen)-1])
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] <= seen[i-1] {
			t.Fatalf("progress fell: %v then %v", seen[i-1], seen[i])
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	req.Progress = func(p float64) {
		if p >= 0.5 {
			cancel()
		}
	}
	if _, err := backtest.Run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled run ended with %v", err)
	}
}
