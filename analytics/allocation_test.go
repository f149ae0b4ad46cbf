package analytics

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func TestAllocationHistory(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2025, 1, d, 0, 0, 0, 0, time.UTC) }
	at := func(d, h int) time.Time { return day(d).Add(time.Duration(h) * time.Hour) }
	fill := func(when time.Time, sym string, side domain.Side, qty, px, fee string) domain.Fill {
		return domain.Fill{Symbol: sym, Side: side, Quantity: dec(qty), Price: dec(px), Fee: dec(fee), Time: when}
	}
	// Newest first, as the exchange lists them. Cash starts at 20,000:
	// -5,030 (buy 0.1 BTC), -6,036 (buy 2 ETH), +2,982 (sell 0.05 BTC), +3,081.4 (sell 1 ETH) = 14,997.4.
	fills := []domain.Fill{
		fill(at(3, 10), "ETH-USD", domain.Sell, "1", "3100", "18.6"),
		fill(at(3, 9), "BTC-USD", domain.Sell, "0.05", "60000", "18"),
		fill(at(2, 12), "ETH-USD", domain.Buy, "2", "3000", "36"),
		fill(at(1, 10), "BTC-USD", domain.Buy, "0.1", "50000", "30"),
	}
	balances := []domain.Balance{bal("USD", "14000", "997.4"), bal("BTC", "0.05", "0"), bal("ETH", "0.6", "0.4")}
	closes := map[string]map[time.Time]decimal.Decimal{
		"BTC-USD": {day(0): dec("48000"), day(1): dec("51000"), day(2): dec("52000"), day(3): dec("61000"), day(4): dec("62000")},
		"ETH-USD": {day(1): dec("2900"), day(2): dec("3050"), day(3): dec("3200")}, // none on day 4
	}
	got := AllocationHistory(fills, balances, closes, []time.Time{day(0), day(1), day(2), day(3), day(4)})
	type share struct{ asset, qty, value, alloc string }
	want := []struct {
		date   time.Time
		total  string
		shares []share
	}{
		{day(0), "20000", []share{{"USD", "20000", "20000", "100"}}},
		// 5,100 / 20,070 = 25.411%; 14,970 / 20,070 = 74.589%.
		{day(1), "20070", []share{{"BTC-USD", "0.1", "5100", "25.41"}, {"USD", "14970", "14970", "74.59"}}},
		// 5,200 + 6,100 + 8,934 = 20,234: 25.699%, 30.147%, 44.153%.
		{day(2), "20234", []share{{"BTC-USD", "0.1", "5200", "25.7"}, {"ETH-USD", "2", "6100", "30.15"}, {"USD", "8934", "8934", "44.15"}}},
		// 3,050 + 3,200 + 14,997.4 = 21,247.4: 14.355%, 15.061%, 70.585%.
		{day(3), "21247.4", []share{{"BTC-USD", "0.05", "3050", "14.35"}, {"ETH-USD", "1", "3200", "15.06"}, {"USD", "14997.4", "14997.4", "70.58"}}},
		// Day 4 is left out: ETH is held and has no close.
	}
	if len(got) != len(want) {
		t.Fatalf("%d days, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if !g.Date.Equal(w.date) || !g.TotalValue.Equal(dec(w.total)) {
			t.Errorf("day %d: %s total %s, want %s total %s", i, g.Date, g.TotalValue, w.date, w.total)
		}
		if len(g.Assets) != len(w.shares) {
			t.Fatalf("day %d: assets %+v, want %+v", i, g.Assets, w.shares)
		}
		for j, s := range w.shares {
			a := g.Assets[j]
			if a.Asset != s.asset || !a.Quantity.Equal(dec(s.qty)) || !a.Value.Equal(dec(s.value)) || a.Allocation == nil || !a.Allocation.Equal(dec(s.alloc)) {
				t.Errorf("day %d asset %d: %s qty %s value %s alloc %v, want %+v", i, j, a.Asset, a.Quantity, a.Value, a.Allocation, s)
			}
		}
	}
}

func TestAllocationHistoryWithoutValue(t *testing.T) {
	d := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	got := AllocationHistory(nil, nil, nil, []time.Time{d})
	if len(got) != 1 || len(got[0].Assets) != 1 || got[0].Assets[0].Allocation != nil {
		t.Fatalf("an empty account: %+v (want cash only, no share of nothing)", got)
	}
}
