package risk

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func buy(sym, n string) Order  { return Order{Symbol: sym, Side: domain.Buy, Notional: d(n)} }
func sell(sym, n string) Order { return Order{Symbol: sym, Side: domain.Sell, Notional: d(n)} }
func reduce(o Order) Order     { o.Reduces = true; return o }

func TestCheck(t *testing.T) {
	base := Snapshot{PortfolioValue: d("100000"), StartOfDayValue: d("100000"), PeakValue: d("100000"),
		Exposure: map[string]decimal.Decimal{}}
	with := func(f func(*Snapshot)) Snapshot {
		s := base
		s.Exposure = map[string]decimal.Decimal{}
		f(&s)
		return s
	}
	tenPositions := func(s *Snapshot) {
		for _, sym := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"} {
			s.Exposure[sym+"-USD"] = d("100")
		}
	}
	halted := with(func(s *Snapshot) { s.EmergencyStop = true })
	allLimits := with(func(s *Snapshot) {
		tenPositions(s)
		s.TradesToday = 50
		s.PortfolioValue = d("80000") // down 20%: daily loss and drawdown both hit
		s.Exposure["BTC-USD"] = d("12000")
		s.EmergencyStop = true
	})
	modify := buy("BTC-USD", "9000")
	modify.Replaces = d("9000")
	tests := []struct {
		name    string
		snap    Snapshot
		order   Order
		wantErr string // "" means allowed
	}{
		{"ordinary buy", base, buy("BTC-USD", "600"), ""},
		{"emergency stop refuses a buy", halted, buy("BTC-USD", "600"), "emergency stop is active"},
		{"emergency stop refuses a sell that does not reduce", halted, sell("BTC-USD", "600"), "emergency stop is active"},
		{"emergency stop accepts a reducing sell", halted, reduce(sell("BTC-USD", "600")), ""},
		{"a reducing sell passes every limit at once", allLimits, reduce(sell("BTC-USD", "12000")), ""},
		{"a reducing sell below the minimum trade amount", base, reduce(sell("BTC-USD", "1")), ""},
		{"below minimum", base, buy("BTC-USD", "9.99"), "below the minimum trade amount of $10.00"},
		{"above maximum", base, buy("BTC-USD", "10000.01"), "exceeds the maximum trade amount of $10000.00"},
		{"daily trades", with(func(s *Snapshot) { s.TradesToday = 50 }), buy("BTC-USD", "100"), "Daily trade limit reached (50"},
		{"position size", with(func(s *Snapshot) { s.Exposure["BTC-USD"] = d("9500") }), buy("BTC-USD", "600"), "would be 10.1% of portfolio value; the maximum position size is 10.0% (at most $500.00 more can be bought)"},
		// 10,000.50 of 100,000 is 10.0005%: one place would read "10.0% ... 10.0%".
		{"position size just over the limit says by how much", with(func(s *Snapshot) { s.Exposure["BTC-USD"] = d("9400.5") }), buy("BTC-USD", "600"), "would be 10.0005% of portfolio value; the maximum position size is 10.0000% (at most $599.50 more can be bought)"},
		{"position size with no room left", with(func(s *Snapshot) { s.Exposure["BTC-USD"] = d("10000") }), buy("BTC-USD", "600"), "(nothing more can be bought)"},
		{"position size exactly at limit", with(func(s *Snapshot) { s.Exposure["BTC-USD"] = d("9400") }), buy("BTC-USD", "600"), ""},
		{"a modify replaces its own exposure", with(func(s *Snapshot) { s.Exposure["BTC-USD"] = d("9000") }), modify, ""},
		{"open positions", with(tenPositions), buy("BTC-USD", "100"), "Maximum open positions reached (10)"},
		{"adding to a held symbol at max positions", with(func(s *Snapshot) {
			tenPositions(s)
			s.Exposure["BTC-USD"] = d("1")
			delete(s.Exposure, "A-USD")
		}), buy("BTC-USD", "100"), ""},
		{"leverage: exposure above equity", with(func(s *Snapshot) {
			for _, sym := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I"} {
				s.Exposure[sym+"-USD"] = d("10000")
			}
			s.Exposure["J-USD"] = d("9500")
		}), buy("J-USD", "600"), "Total exposure would be 1.00x equity"},
		{"daily loss", with(func(s *Snapshot) { s.PortfolioValue = d("95000") }), buy("BTC-USD", "100"), "Daily loss limit reached: down 5.0% today"},
		{"drawdown", with(func(s *Snapshot) {
			s.PeakValue = d("120000")
			s.StartOfDayValue = d("100000")
			s.PortfolioValue = d("100000")
		}), buy("BTC-USD", "100"), "Maximum drawdown reached: 16.7% below peak"},
		{"sell allowed during daily loss", with(func(s *Snapshot) { s.PortfolioValue = d("90000") }), sell("BTC-USD", "100"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := DefaultLimits()
			if strings.HasPrefix(tc.name, "leverage") {
				l.MaxPositionSize = d("1")
				l.MaxLeverage = d("3") // above 1 acts as 1 on spot
				l.MaxOpenPositions = 20
			}
			err := Check(l, tc.snap, tc.order)
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

func TestSummary(t *testing.T) {
	want := "max position 10% of portfolio, trades $10-$10000, max 10 open positions, daily loss limit 5%, max drawdown 15%; long only (spot)"
	if got := DefaultLimits().Summary(); got != want {
		t.Fatalf("summary %q", got)
	}
}
