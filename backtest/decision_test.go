package backtest_test

import (
	"context"
	"testing"
	"time"

	"kestrel/backtest"
	"kestrel/strategy"
)

// Every evaluation is heard, HOLDs included, by the open time of the
// candle evaluated (the candles after the warm-up but the last, which has
// no next open to act on); hearing them changes nothing of the run.
func TestDecisionHearsEveryEvaluation(t *testing.T) {
	cs := flat(8)
	plain, err := backtest.Run(context.Background(), request(&script{at: map[time.Time]string{cs[3].Time: strategy.Buy}}, cs, nil))
	if err != nil {
		t.Fatal(err)
	}
	req := request(&script{at: map[time.Time]string{cs[3].Time: strategy.Buy}}, cs, nil)
	heard := map[time.Time]string{}
	req.Decision = func(c time.Time, d string, _ float64) { heard[c] = d }
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(heard) != 6 || heard[cs[3].Time] != strategy.Buy || heard[cs[1].Time] != strategy.Hold || heard[cs[7].Time] != "" {
		t.Fatalf("heard %v; want candles 1..6, BUY at 3", heard)
	}
	if len(res.Fills) != len(plain.Fills) || !res.FinalEquity.Equal(plain.FinalEquity) {
		t.Errorf("with the hook: %d fills, equity %s; without: %d, %s", len(res.Fills), res.FinalEquity, len(plain.Fills), plain.FinalEquity)
	}
}
