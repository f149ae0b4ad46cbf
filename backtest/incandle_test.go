package backtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
)

// A fill never lies outside the candle it fills in: BTC-USD's candle of
// 2025-01-06 04:00 opens at its low (99,003.79), so a SELL at that open
// gets the low, not the bid half a spread under it (98,998.83), and with
// slippage still the low; a BUY at an open that is the high pays the high.
func TestFillsStayInsideTheCandle(t *testing.T) {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2025, 1, 5, 20, 0, 0, 0, time.UTC)
	var cs []domain.Candle
	for at := from; !at.After(from.Add(10 * time.Hour)); at = at.Add(time.Hour) {
		c, ok := s.At(at)
		if !ok {
			t.Fatalf("no candle at %s", at)
		}
		cs = append(cs, c)
	}
	sellAt := time.Date(2025, 1, 6, 4, 0, 0, 0, time.UTC)
	fillCandle, _ := s.At(sellAt)
	if !fillCandle.Open.Equal(fillCandle.Low) {
		t.Fatalf("the 04:00 candle %+v no longer opens at its low", fillCandle)
	}
	for _, bps := range []string{"0", "10"} {
		sc := &script{at: map[time.Time]string{cs[2].Time: strategy.Buy, sellAt.Add(-time.Hour): strategy.Sell}}
		req := request(sc, cs, nil)
		req.HalfSpread, req.SlippageBps = replay.LiveHalfSpread, d(bps)
		res, err := backtest.Run(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		var sell *backtest.Fill
		for i := range res.Fills {
			if res.Fills[i].Side == domain.Sell && res.Fills[i].Time.Equal(sellAt) {
				sell = &res.Fills[i]
			}
		}
		if sell == nil {
			t.Fatalf("slippage %s bps: no SELL at %s: %+v", bps, sellAt, res.Fills)
		}
		if !sell.Price.Equal(fillCandle.Low) {
			t.Errorf("slippage %s bps: SELL filled at %s on a candle whose low is %s: want the low", bps, sell.Price, fillCandle.Low)
		}
	}
	// A BUY at an open that is the candle's high pays the high, slippage or not.
	cs2 := flat(10)
	cs2[6] = bar(6, "100", "100", "95", "97")
	sc := &script{at: map[time.Time]string{cs2[5].Time: strategy.Buy}}
	req := request(sc, cs2, nil)
	req.HalfSpread, req.SlippageBps = replay.LiveHalfSpread, d("25")
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) == 0 || res.Fills[0].Side != domain.Buy || !res.Fills[0].Price.Equal(decimal.NewFromInt(100)) {
		t.Fatalf("BUY at an open that is the high: %+v, want 100.00", res.Fills)
	}
	// Buy and hold too: in at the first candle's 100 (its high), out at
	// the last's 100 (its low), the fee on both.
	fee := d("0.006")
	want := d("100").Mul(decimal.NewFromInt(1).Sub(fee)).Div(d("100").Mul(decimal.NewFromInt(1).Add(fee))).Sub(decimal.NewFromInt(1)).InexactFloat64()
	if res.BuyAndHold != want {
		t.Fatalf("buy and hold %v, want %v", res.BuyAndHold, want)
	}
}

// ranged widens each candle of one price (open = high = low) to five cents
// either side: a quiet hour's trades, wide enough to hold a fill at the bid
// or ask half a spread away (a fill stays within its candle).
func ranged(cs []domain.Candle) []domain.Candle {
	nickel := d("0.05")
	for i, c := range cs {
		if c.High.Equal(c.Low) {
			cs[i].High, cs[i].Low = c.High.Add(nickel), c.Low.Sub(nickel)
		}
	}
	return cs
}
