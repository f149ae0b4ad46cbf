package analytics

import (
	"testing"
	"time"

	"kestrel/domain"
)

func TestPortfolioOf(t *testing.T) {
	at := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	eth, btc := held("ETH-USD", "4", "2700"), held("BTC-USD", "1", "55000")
	eth.UnrealizedPnL, btc.UnrealizedPnL = dec("739.96"), dec("4699.99")
	btc.RealizedPnL = dec("100.004")
	sol := domain.Position{Symbol: "SOL-USD", Quantity: dec("0"), RealizedPnL: dec("-12.5")}
	v := Valuation{Cash: dec("39738.91994"), Total: dec("105538.91994"), Positions: []domain.Position{eth, sol, btc}}

	p := PortfolioOf(v, dec("5538.91994"), dec("15538.91994"), at)
	if p.PositionsCount != 2 || len(p.Positions) != 2 || p.Positions[0].Symbol != "BTC-USD" || p.Positions[1].Symbol != "ETH-USD" {
		t.Fatalf("positions %+v, want BTC-USD then ETH-USD (largest first), closed SOL-USD left out", p.Positions)
	}
	eq(t, "total value", p.TotalValue, "105538.92")
	eq(t, "cash", p.CashBalance, "39738.92")
	eq(t, "unrealized", p.TotalUnrealizedPnL, "5439.95")
	eq(t, "realized: 100.004 on BTC, -12.5 on closed SOL", p.TotalRealizedPnL, "87.5")
	eq(t, "exposure", p.TotalExposure, "65800")
	eq(t, "daily P&L", p.DailyPnL, "5538.92")
	eq(t, "weekly P&L", p.WeeklyPnL, "15538.92")
	if p.Diversification.Symbols != 2 {
		t.Errorf("diversification over %d symbols, want 2", p.Diversification.Symbols)
	}
	eq(t, "largest position: 55,000 of 105,538.92", p.Diversification.LargestPositionPercentage, "52.11")
	if !p.LastUpdated.Equal(at) {
		t.Errorf("last updated %s, want %s", p.LastUpdated, at)
	}
}

func TestPortfolioOfEmptyListsNoPositions(t *testing.T) {
	p := PortfolioOf(Valuation{Cash: dec("100000"), Total: dec("100000")}, dec("0"), dec("0"), time.Time{})
	if p.Positions == nil || len(p.Positions) != 0 || p.PositionsCount != 0 {
		t.Errorf("positions %#v, want an empty list (JSON [] not null)", p.Positions)
	}
	eq(t, "largest position", p.Diversification.LargestPositionPercentage, "0")
}

func TestDiversificationOf(t *testing.T) {
	for _, tc := range []struct {
		name      string
		positions []domain.Position
		total     string
		symbols   int
		largest   string
	}{
		{"1 BTC at 55,000 of 105,538.92", []domain.Position{held("ETH-USD", "4", "2700"), held("BTC-USD", "1", "55000")}, "105538.92", 2, "52.11"},
		{"everything in one position", []domain.Position{held("BTC-USD", "1", "55000")}, "55000", 1, "100"},
		{"closed books are not holdings", []domain.Position{held("BTC-USD", "0", "55000"), held("ETH-USD", "1", "2700")}, "10000", 1, "27"},
		{"cash only", nil, "100000", 0, "0"},
		{"zero value: no share of nothing", []domain.Position{held("BTC-USD", "1", "0")}, "0", 1, "0"},
		{"negative value: no share", []domain.Position{held("BTC-USD", "1", "10")}, "-5", 1, "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := DiversificationOf(tc.positions, dec(tc.total))
			if d.Symbols != tc.symbols {
				t.Errorf("symbols %d, want %d", d.Symbols, tc.symbols)
			}
			eq(t, "largest %", d.LargestPositionPercentage, tc.largest)
		})
	}
}
