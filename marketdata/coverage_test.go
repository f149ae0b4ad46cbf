package marketdata_test

import (
	"context"
	"testing"

	"kestrel/domain"
	"kestrel/marketdata"
)

// spanCounter counts the scans of every stored candle Coverage makes.
type spanCounter struct {
	domain.CandleStore
	scans int
}

func (s *spanCounter) CandleSpans(ctx context.Context) ([]domain.CandleSpan, error) {
	s.scans++
	return s.CandleStore.CandleSpans(ctx)
}

// Coverage scans the store once and answers from that until the candles
// change (History.Changed, which a backfill's stored page calls).
func TestCoverageIsKeptUntilTheCandlesChange(t *testing.T) {
	st, _ := imported(t)
	counted := &spanCounter{CandleStore: st}
	h := marketdata.New(counted, 1)
	ctx := context.Background()
	first, err := h.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again, err := h.Coverage(ctx)
	if err != nil || len(again) != len(first) {
		t.Fatalf("again: %d rows, %v", len(again), err)
	}
	if counted.scans != 1 {
		t.Fatalf("%d scans for two answers, want 1", counted.scans)
	}
	h.Changed()
	if _, err := h.Coverage(ctx); err != nil || counted.scans != 2 {
		t.Fatalf("after Changed: %d scans (%v), want 2", counted.scans, err)
	}
}
