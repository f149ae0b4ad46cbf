package strategy_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/strategy"
)

// A candle whose data cannot be read is tried again on the next step, and
// once a later candle has closed it is stored as not evaluated, with why:
// no candle is skipped without a trace.
func TestFailedCandleFetchIsRetriedThenRecorded(t *testing.T) {
	r := newRig(t)
	r.enable(t, strategy.TechnicalName, "BTC-USD")
	ctx := context.Background()
	setFail := func(err error) { r.mkt.mu.Lock(); r.mkt.fail = err; r.mkt.mu.Unlock() }

	setFail(errors.New("candle store timeout"))
	if evs := r.eng.Step(ctx); len(evs) != 0 {
		t.Fatalf("evaluated without candles: %+v", evs)
	}
	setFail(nil)
	evs := r.eng.Step(ctx)
	if len(evs) != 1 || evs[0].Error != "" {
		t.Fatalf("the retry did not evaluate the candle: %+v", evs)
	}
	first := evs[0].CandleTime

	setFail(errors.New("candle store timeout"))
	r.mkt.push("BTC-USD", 46000) // the next candle closes, and cannot be read
	if evs := r.eng.Step(ctx); len(evs) != 0 {
		t.Fatalf("evaluated without candles: %+v", evs)
	}
	r.mkt.push("BTC-USD", 46100) // and another closes before the data is back
	setFail(nil)
	r.eng.Step(ctx)
	stored, err := r.store.Evaluations(ctx, domain.EvaluationFilter{Strategy: strategy.TechnicalName, Symbol: "BTC-USD"})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 3 {
		t.Fatalf("stored %d evaluations, want 3: %+v", len(stored), stored)
	}
	sort.Slice(stored, func(i, j int) bool { return stored[i].CandleTime.After(stored[j].CandleTime) })
	missed := stored[1] // the latest candle, the missed one, the first
	if !missed.CandleTime.Equal(first.Add(hour)) || missed.Decision != "HOLD" || !strings.Contains(missed.Reason, "Not evaluated: market data unavailable: candle store timeout") {
		t.Fatalf("missed candle %+v", missed)
	}
	if !stored[0].CandleTime.Equal(first.Add(2*hour)) || stored[0].Error != "" {
		t.Fatalf("latest %+v", stored[0])
	}
}

const hour = time.Hour
