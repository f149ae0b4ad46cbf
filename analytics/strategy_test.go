package analytics

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func TestStrategyOf(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	f := func(m int, side domain.Side, qty, px, fee, strat string) domain.Fill {
		return domain.Fill{Symbol: "BTC-USD", Side: side, Quantity: decimal.RequireFromString(qty), Price: decimal.RequireFromString(px),
			Fee: decimal.RequireFromString(fee), Strategy: strat, Time: at(m)}
	}
	fills := []domain.Fill{
		f(3, domain.Sell, "1", "90", "0", "s"),  // loses 10 against the average cost of 100
		f(0, domain.Buy, "2", "100", "0", "s"),  // cost 200
		f(1, domain.Sell, "1", "110", "0", "s"), // wins 10
		f(2, domain.Buy, "1", "100", "0", "s"),  // cost now 200 for 2
		f(4, domain.Sell, "1", "95", "0", "s"),  // flat: the first round trip nets -200+110-100+90+95 = -5
		f(5, domain.Buy, "1", "100", "0", "s"),
		f(6, domain.Sell, "1", "120", "0", "s"), // second round trip: +20
		f(7, domain.Buy, "1", "100", "0", "s"),  // open: not a trade
		f(2, domain.Buy, "5", "1", "0", "other"),
	}
	p := StrategyOf("s", fills, Prices{"BTC-USD": decimal.NewFromInt(120)})
	if p.TotalTrades != 2 || p.WinningTrades != 1 || p.WinRate != 50 {
		t.Fatalf("trades %+v, want 2 round trips, 1 won", p)
	}
	// Realized: +10, -10, -5, +20 = 15. Held 1 at cost 100, worth 120: +20.
	if !p.RealizedPnL.Equal(decimal.NewFromInt(15)) || !p.UnrealizedPnL.Equal(decimal.NewFromInt(20)) || !p.TotalPnL.Equal(decimal.NewFromInt(35)) {
		t.Fatalf("pnl %+v", p)
	}
	if !p.MaxDrawdown.Equal(decimal.NewFromInt(15)) {
		t.Fatalf("max drawdown %s, want 15 (cumulative 10 -> -5)", p.MaxDrawdown)
	}
	if none := StrategyOf("none", fills, nil); none.TotalTrades != 0 || !none.TotalPnL.IsZero() || none.SharpeRatio != 0 {
		t.Fatalf("no fills: %+v", none)
	}
}

func TestSince(t *testing.T) {
	now := time.Date(2026, 5, 31, 12, 0, 0, 0, time.UTC)
	if s, err := Since("7d", now); err != nil || !s.Equal(now.AddDate(0, 0, -7)) {
		t.Fatalf("7d: %v %v", s, err)
	}
	if s, err := Since("all", now); err != nil || !s.IsZero() {
		t.Fatalf("all: %v %v", s, err)
	}
	if _, err := Since("2w", now); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("2w: %v", err)
	}
}
