package backtest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/replay"
)

// trailingScenario: a BUY at 100, eight hours rising to 108, then an hour
// that falls to 100 and a quiet day after.
func trailingScenario() ([]domain.Candle, map[time.Time]string) {
	day0 := time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)
	cs := make([]domain.Candle, 24)
	for i := range cs {
		p := d("100")
		switch {
		case i >= 3 && i <= 10:
			p = d(fmt.Sprint(100 + i - 2)) // 101 .. 108
		case i > 10:
			p = d("101")
		}
		cs[i] = domain.Candle{Time: day0.Add(time.Duration(i) * time.Hour), Open: p, High: p, Low: p, Close: p, Volume: d("1000")}
		if i >= 3 && i <= 10 { // each hour opens at the last close and closes at its high
			cs[i].Open, cs[i].Low = p.Sub(d("1")), p.Sub(d("1"))
		}
	}
	cs[11].Open, cs[11].High, cs[11].Low, cs[11].Close = d("108"), d("108"), d("100"), d("101")
	ranged(cs) // the quiet hours trade a few cents either side, room for a fill at the bid or ask
	return cs, map[time.Time]string{cs[1].Time: "BUY"}
}

// The check: a trailing stop follows the price up in the sandbox
// and triggers on the way down, with the same fills in a backtest of the
// same candles. The live path (strategy engine, gateway, protective
// trailing stop, sandbox, simulated clock) and the backtest give the same
// fills, and the stop sold near the high, not at the 98 a fixed 2% stop
// under the 100 entry would have.
func TestTrailingStopLiveBacktestParity(t *testing.T) {
	cs, signals := trailingScenario()
	policy := parityPolicy()
	policy.TrailingStop = true
	liveFills, _, _ := runLive(t, cs, signals, policy)

	req := request(&script{at: signals}, cs, nil)
	req.Config, req.Policy, req.HalfSpread = parityConfig(), policy, replay.LiveHalfSpread
	req.Warmup = 1
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var btFills []string
	var stopFill *backtest.Fill
	for i, f := range res.Fills {
		if f.Reason != "end_of_data" {
			btFills = append(btFills, fmt.Sprintf("%s %s %s x %s fee %s", f.Time.Format("Jan 2 15h"), f.Side, f.Price, f.Quantity, f.Fee))
		}
		if f.Reason == "stop_loss" {
			stopFill = &res.Fills[i]
		}
	}
	if strings.Join(btFills, "\n") != strings.Join(liveFills, "\n") {
		t.Fatalf("fills differ\nlive:\n%s\nbacktest:\n%s", strings.Join(liveFills, "\n"), strings.Join(btFills, "\n"))
	}
	if len(btFills) != 2 || stopFill == nil {
		t.Fatalf("want the BUY and the trailing stop's SELL, got:\n%s", strings.Join(btFills, "\n"))
	}
	// The high was 108: the stop trailed to 105.84 (108 x 0.98) and sold
	// there at the bid, in the hour the price fell.
	if stopFill.Price.LessThan(d("105.7")) || stopFill.Price.GreaterThan(d("105.84")) || stopFill.Time.Hour() != 11 {
		t.Fatalf("trailing stop sold at %s at %s, want just under 105.84 in the 11:00 hour", stopFill.Price, stopFill.Time)
	}
	t.Logf("fills, the same on both paths:\n%s", strings.Join(btFills, "\n"))
}
