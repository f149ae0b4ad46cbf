package risk

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestCheck(t *testing.T) {
	base := Snapshot{PortfolioValue: d("100000"), StartOfDayValue: d("100000"), PeakValue: d("100000"),
		PositionValues: map[string]decimal.Decimal{}}
	with := func(f func(*Snapshot)) Snapshot {
		s := base
		s.PositionValues = map[string]decimal.Decimal{}
		f(&s)
		return s
	}
	tenPositions := func(s *Snapshot) {
		for _, sym := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"} {
			s.PositionValues[sym+"-USD"] = d("100")
		}
	}
	tests := []struct {
		name    string
		snap    Snapshot
		order   Order
		wantErr string // "" means allowed
	}{
		{"ordinary buy", base, Order{"BTC-USD", domain.Buy, d("600")}, ""},
		{"emergency stop", with(func(s *Snapshot) { s.EmergencyStop = true }), Order{"BTC-USD", domain.Sell, d("600")}, "emergency stop is active"},
		{"below minimum", base, Order{"BTC-USD", domain.Buy, d("9.99")}, "below the minimum trade amount of $10.00"},
		{"above maximum", base, Order{"BTC-USD", domain.Buy, d("10000.01")}, "exceeds the maximum trade amount of $10000.00"},
		{"daily trades", with(func(s *Snapshot) { s.TradesToday = 50 }), Order{"BTC-USD", domain.Buy, d("100")}, "Daily trade limit reached (50"},
		{"position size", with(func(s *Snapshot) { s.PositionValues["BTC-USD"] = d("9500") }), Order{"BTC-USD", domain.Buy, d("600")}, "would be 10.1% of portfolio value; the maximum position size is 10.0%"},
		{"position size exactly at limit", with(func(s *Snapshot) { s.PositionValues["BTC-USD"] = d("9400") }), Order{"BTC-USD", domain.Buy, d("600")}, ""},
		{"open positions", with(tenPositions), Order{"BTC-USD", domain.Buy, d("100")}, "Maximum open positions reached (10)"},
		{"adding to a held symbol at max positions", with(func(s *Snapshot) {
			tenPositions(s)
			s.PositionValues["BTC-USD"] = d("1")
			delete(s.PositionValues, "A-USD")
		}), Order{"BTC-USD", domain.Buy, d("100")}, ""},
		{"daily loss", with(func(s *Snapshot) { s.PortfolioValue = d("95000") }), Order{"BTC-USD", domain.Buy, d("100")}, "Daily loss limit reached: down 5.0% today"},
		{"drawdown", with(func(s *Snapshot) {
			s.PeakValue = d("120000")
			s.StartOfDayValue = d("100000")
			s.PortfolioValue = d("100000")
		}), Order{"BTC-USD", domain.Buy, d("100")}, "Maximum drawdown reached: 16.7% below peak"},
		{"sell allowed during daily loss", with(func(s *Snapshot) { s.PortfolioValue = d("90000") }), Order{"BTC-USD", domain.Sell, d("100")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(DefaultLimits(), tc.snap, tc.order)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if domain.ErrorCode(err) != domain.ERejected || !strings.Contains(domain.ErrorMessage(err), tc.wantErr) {
				t.Fatalf("err = %v, want rejected containing %q", err, tc.wantErr)
			}
		})
	}
}
