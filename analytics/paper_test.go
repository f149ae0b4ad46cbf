package analytics

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func call(sym string, h int, price, decision string) PaperCall {
	return PaperCall{Symbol: sym, Time: time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC), Price: decimal.RequireFromString(price), Decision: decision}
}

func TestPaperTradeWithoutFees(t *testing.T) {
	calls := []PaperCall{
		call("BTC-USD", 3, "120", "SELL"), // out of order on purpose: sorted by time
		call("BTC-USD", 0, "100", "BUY"),
		call("BTC-USD", 1, "110", "BUY"),  // already long: ignored
		call("BTC-USD", 2, "90", "HOLD"),  // nothing
		call("BTC-USD", 4, "100", "SELL"), // flat: ignored, never short
		call("BTC-USD", 5, "100", "BUY"),
		call("BTC-USD", 6, "80", "SELL"),
		call("ETH-USD", 0, "10", "BUY"), // left open: not realised
		call("ETH-USD", 1, "20", ""),    // failed: ignored
	}
	s := PaperTrade(calls, []string{"BTC-USD", "ETH-USD"}, decimal.Zero)
	// BTC: 100 -> 120 (+20%, a win), then 100 -> 80 (-20%): 1.2 × 0.8 = 0.96.
	// ETH: flat (open). Mean of the stakes: (0.96 + 1) / 2 = 0.98 -> -2%.
	if s.RoundTrips != 2 || s.Wins != 1 || s.HitRate == nil || *s.HitRate != 50 || s.OpenPositions != 1 {
		t.Fatalf("score %+v", s)
	}
	if want := decimal.RequireFromString("-0.02"); !s.RealisedReturn.Equal(want) {
		t.Errorf("realised return %s, want %s", s.RealisedReturn, want)
	}
}

func TestPaperTradeChargesTheFeeOnBothSides(t *testing.T) {
	// Fee 1%: 1 buys 1/1.01 of notional at 100; sold at 103 it returns
	// 1.03 × 0.99 / 1.01 = 1.0096039603960396 (a win).
	s := PaperTrade([]PaperCall{call("BTC-USD", 0, "100", "BUY"), call("BTC-USD", 1, "103", "SELL")}, []string{"BTC-USD"}, decimal.RequireFromString("0.01"))
	want := decimal.RequireFromString("1.03").Mul(decimal.RequireFromString("0.99")).Div(decimal.RequireFromString("1.01")).Sub(decimal.NewFromInt(1))
	if !s.RealisedReturn.Equal(want) || s.Wins != 1 {
		t.Fatalf("score %+v, want return %s", s, want)
	}
	// At 102 the fees eat the move: 1.02 × 0.99 / 1.01 < 1, a loss.
	s = PaperTrade([]PaperCall{call("BTC-USD", 0, "100", "BUY"), call("BTC-USD", 1, "102", "SELL")}, []string{"BTC-USD"}, decimal.RequireFromString("0.01"))
	if s.Wins != 0 || !s.RealisedReturn.IsNegative() || *s.HitRate != 0 {
		t.Fatalf("score %+v: a move smaller than the fees is a loss", s)
	}
}

func TestPaperTradeWithNoRoundTripHasNoHitRate(t *testing.T) {
	s := PaperTrade([]PaperCall{call("BTC-USD", 0, "100", "HOLD")}, []string{"BTC-USD"}, decimal.Zero)
	if s.HitRate != nil || !s.RealisedReturn.IsZero() || s.RoundTrips != 0 {
		t.Fatalf("score %+v", s)
	}
}
