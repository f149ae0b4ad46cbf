package analytics

import (
	"math"
	"testing"

	"kestrel/domain"
)

func order(status domain.OrderStatus, qty, filled string) domain.Order {
	return domain.Order{ID: string(status) + qty + filled, Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit,
		Quantity: dec(qty), FilledQuantity: dec(filled), Price: decp("60000"), Status: status}
}

func TestPerformanceOf(t *testing.T) {
	orders := []domain.Order{
		order(domain.StatusFilled, "1", "1"),
		order(domain.StatusFilled, "4", "4"),
		order(domain.StatusRejected, "15", "0"),
		order(domain.StatusOpen, "0.1", "0"),
		order(domain.StatusPending, "0.1", "0"),
		order(domain.StatusCancelled, "0.1", "0"),    // never traded: not counted
		order(domain.StatusCancelled, "0.1", "0.08"), // ended cancelled: not a filled trade either
	}
	v := Valuation{Cash: dec("39738.91994"), Total: dec("105538.91994"),
		Positions: []domain.Position{held("BTC-USD", "1", "55000"), held("ETH-USD", "4", "2700"), held("SOL-USD", "0", "150")}}
	// The filled orders above are not trades; closed round trips are: two
	// won, one lost (and an open position that is not a trade yet).
	fills := []domain.Fill{
		fillAt("BTC-USD", domain.Buy, "1", "100", "1", 1), fillAt("BTC-USD", domain.Sell, "1", "110", "1", 2), // +8
		fillAt("BTC-USD", domain.Buy, "1", "100", "1", 3), fillAt("BTC-USD", domain.Sell, "1", "101", "1", 4), // -1
		fillAt("ETH-USD", domain.Buy, "2", "10", "0", 5), fillAt("ETH-USD", domain.Sell, "2", "11", "0", 6), // +2
		fillAt("ETH-USD", domain.Buy, "2", "10", "0", 7),
	}
	p := PerformanceOf(orders, fills, v, dec("5538.91994"))
	if p.TotalTrades != 3 || p.SuccessfulTrades != 2 || p.FailedTrades != 1 || p.PendingOrders != 2 || p.ActivePositions != 2 {
		t.Errorf("counts %+v, want 3 trades (2 won, 1 lost), 2 pending, 2 active", p)
	}
	if p.WinRate != 66.7 {
		t.Errorf("win rate %v, want 66.7", p.WinRate)
	}
	eq(t, "exposure: 1 BTC at 55,000 and 4 ETH at 2,700", p.TotalExposure, "65800")
	eq(t, "portfolio value", p.PortfolioValue, "105538.92")
	eq(t, "daily P&L", p.DailyPnL, "5538.92")
}

func TestPerformanceOfNothing(t *testing.T) {
	p := PerformanceOf(nil, nil, Valuation{}, dec("0"))
	if p.TotalTrades != 0 || p.PendingOrders != 0 || p.ActivePositions != 0 || p.WinRate != 0 || math.Signbit(p.WinRate) {
		t.Errorf("empty performance %+v", p)
	}
	eq(t, "exposure", p.TotalExposure, "0")
	eq(t, "value", p.PortfolioValue, "0")
}

func TestWinRate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		won, total int
		want       float64
	}{
		{"no trades", 0, 0, 0},
		{"2 of 3", 2, 3, 66.7},
		{"1 of 3", 1, 3, 33.3},
		{"1 of 6 rounds up", 1, 6, 16.7},
		{"23 of 80 is 28.75%, half rounds away from zero", 23, 80, 28.8},
		{"1 of 16 is 6.25%", 1, 16, 6.3},
		{"all won", 5, 5, 100},
		{"none won is 0, not -0", 0, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WinRate(tc.won, tc.total)
			if got != tc.want || math.Signbit(got) {
				t.Errorf("WinRate(%d, %d) = %v, want %v", tc.won, tc.total, got, tc.want)
			}
		})
	}
}
