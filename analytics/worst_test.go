package analytics

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestWorstHistorical(t *testing.T) {
	day := func(i int) time.Time { return time.Date(2025, 1, 1+i, 0, 0, 0, 0, time.UTC) }
	series := func(ps ...string) []Close {
		out := make([]Close, len(ps))
		for i, p := range ps {
			out[i] = Close{Date: day(i), Price: decimal.RequireFromString(p)}
		}
		return out
	}
	closes := map[string][]Close{
		"BTC-USD": series("100", "90", "95", "80", "100"), // worst day: day 2 -> 3, -15.79%
		"ETH-USD": series("10", "10", "12", "12", "6"),    // worst day: day 3 -> 4, -50%
	}
	holdings := []Holding{{Symbol: "BTC-USD", MarketValue: decimal.NewFromInt(1000)}, {Symbol: "ETH-USD", MarketValue: decimal.NewFromInt(100)}}
	sc, ok := WorstHistorical(closes, holdings, 1, "Worst day")
	if !ok {
		t.Fatal("no scenario")
	}
	// Day 2->3: BTC -15/95 (x1000 = -157.89), ETH 0: -157.89; day 3->4: BTC +25% (+250), ETH -50 = +200; day 0->1: -100.
	if sc.Name != "Worst day (2025-01-03 to 2025-01-04)" {
		t.Fatalf("scenario %q", sc.Name)
	}
	r := StressTest(sc, holdings, decimal.NewFromInt(1100))
	if !r.PortfolioImpact.Equal(decimal.RequireFromString("-157.89")) {
		t.Fatalf("impact %s, want -157.89", r.PortfolioImpact)
	}
	// Two days: 1->3 BTC -10/90 (-111.11), ETH +20% (+20): -91.11; 0->2 BTC -5% (-50), ETH +20 (+20): -30; 2->4 BTC +5.26, ETH -50: ...
	sc, _ = WorstHistorical(closes, holdings, 2, "Worst two days")
	if r := StressTest(sc, holdings, decimal.NewFromInt(1100)); !r.PortfolioImpact.Equal(decimal.RequireFromString("-91.11")) {
		t.Fatalf("two-day impact %s (%s), want -91.11", r.PortfolioImpact, sc.Name)
	}
	if _, ok := WorstHistorical(closes, nil, 1, "x"); ok {
		t.Fatal("a scenario without holdings")
	}
}
