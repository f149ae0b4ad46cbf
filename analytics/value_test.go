package analytics

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func TestValue(t *testing.T) {
	prices := Prices{"BTC-USD": dec("55000"), "ETH-USD": dec("2700")}
	for _, tc := range []struct {
		name            string
		balances        []domain.Balance
		wantCash, total string
	}{
		{"cash only", []domain.Balance{bal("USD", "100000", "0")}, "100000", "100000"},
		{"cash on hold is still cash", []domain.Balance{bal("USD", "900", "100")}, "1000", "1000"},
		{"1 BTC at 55,000 and 4 ETH at 2,700 plus 1,000 cash",
			[]domain.Balance{bal("USD", "1000", "0"), bal("BTC", "0.4", "0.6"), bal("ETH", "4", "0")}, "1000", "66800"},
		{"a currency without a price adds nothing", []domain.Balance{bal("USD", "1000", "0"), bal("SOL", "10", "0")}, "1000", "1000"},
		{"no balances", nil, "0", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Value(domain.Account{Balances: tc.balances}, prices)
			eq(t, "cash", v.Cash, tc.wantCash)
			eq(t, "total", v.Total, tc.total)
		})
	}
}

func TestValueValuesEveryBook(t *testing.T) {
	acct := domain.Account{Positions: []domain.PositionBook{book("BTC-USD", "1", "50300.01", "0"), book("SOL-USD", "0", "0", "12.5")}}
	v := Value(acct, Prices{"BTC-USD": dec("55000")})
	if len(v.Positions) != 2 || v.Positions[0].Symbol != "BTC-USD" || v.Positions[1].Symbol != "SOL-USD" {
		t.Fatalf("positions %+v, want BTC-USD and the closed SOL-USD book", v.Positions)
	}
	eq(t, "BTC value", v.Positions[0].CurrentValue, "55000")
	eq(t, "SOL realized", v.Positions[1].RealizedPnL, "12.5")
}

func TestPosition(t *testing.T) {
	prices := Prices{"BTC-USD": dec("55000"), "ETH-USD": dec("2700")}
	for _, tc := range []struct {
		name                                   string
		book                                   domain.PositionBook
		avg, price, value, unrealized, pct, rz string
	}{
		{"1 BTC bought for 50,300.01 at 55,000", book("BTC-USD", "1", "50300.01", "0"),
			"50300.01", "55000", "55000", "4699.99", "9.34", "0"},
		{"4 ETH bought for 10,060.04 at 2,700", book("ETH-USD", "4", "10060.04", "0"),
			"2515.01", "2700", "10800", "739.96", "7.36", "0"},
		{"0.5 BTC costing 30,000 at 55,000, after selling half", book("BTC-USD", "0.5", "30000", "-1234.567"),
			"60000", "55000", "27500", "-2500", "-8.33", "-1234.57"},
		{"no price: the book's own figures only", book("SOL-USD", "10", "1500", "3"),
			"150", "0", "0", "0", "0", "3"},
		{"closed book: realized only, no percentage of nothing", book("BTC-USD", "0", "0", "123.456"),
			"0", "55000", "0", "0", "0", "123.46"},
		{"a loss under half a cent is 0, not -0", book("BTC-USD", "1", "55000.004", "0"),
			"55000.004", "55000", "55000", "0", "0", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Position(tc.book, prices)
			eq(t, "avg price", p.AvgPrice, tc.avg)
			eq(t, "current price", p.CurrentPrice, tc.price)
			eq(t, "current value", p.CurrentValue, tc.value)
			eq(t, "unrealized", p.UnrealizedPnL, tc.unrealized)
			eq(t, "pnl %", p.PnLPercentage, tc.pct)
			eq(t, "realized", p.RealizedPnL, tc.rz)
		})
	}
}

func TestPositionJSONHasNoNegativeZero(t *testing.T) {
	b, err := json.Marshal(Position(book("BTC-USD", "1", "55000.004", "-0.001"), Prices{"BTC-USD": dec("55000")}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"symbol":"BTC-USD","quantity":"1","avg_price":"55000.004","current_price":"55000","unrealized_pnl":"0",` +
		`"realized_pnl":"0","current_value":"55000","pnl_percentage":"0","protection":null}` // protection is the trading layer's to fill
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestExposure(t *testing.T) {
	for _, tc := range []struct {
		name      string
		positions []domain.Position
		want      string
	}{
		{"1 BTC at 55,000 and 4 ETH at 2,700", []domain.Position{held("BTC-USD", "1", "55000"), held("ETH-USD", "4", "2700")}, "65800"},
		{"closed books add nothing", []domain.Position{held("BTC-USD", "1", "55000"), held("SOL-USD", "0", "150")}, "55000"},
		{"to the cent", []domain.Position{held("ADA-USD", "3", "0.4567")}, "1.37"},
		{"none", nil, "0"},
	} {
		t.Run(tc.name, func(t *testing.T) { eq(t, "exposure", Exposure(tc.positions), tc.want) })
	}
}

func TestPnL(t *testing.T) {
	for _, tc := range []struct{ name, start, end, want string }{
		{"day started at 100,000, now 105,739.95", "100000", "105739.95", "5739.95"},
		{"a loss", "100000", "99000.5", "-999.5"},
		{"flat", "100000", "100000", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) { eq(t, "pnl", PnL(dec(tc.start), dec(tc.end)), tc.want) })
	}
}

// Totals and PositionValue, which the risk check uses on every order, agree
// with Value exactly, priced or not.
func TestTotalsAndPositionValueAgreeWithValue(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	amount := func(scale int32) decimal.Decimal { return decimal.New(r.Int64N(1_000_000_000), -scale) }
	for range 500 {
		acct := domain.Account{}
		prices := Prices{}
		for _, cur := range []string{"USD", "BTC", "ETH", "SOL"} {
			if r.IntN(4) == 0 {
				continue
			}
			acct.Balances = append(acct.Balances, domain.Balance{Currency: cur, Available: amount(8), Hold: amount(8)})
			if cur != "USD" {
				if r.IntN(3) > 0 {
					prices[Pair(cur)] = amount(2)
				}
				acct.Positions = append(acct.Positions, domain.PositionBook{Symbol: Pair(cur), Quantity: amount(8), Cost: amount(2), Realized: amount(2)})
			}
		}
		v := Value(acct, prices)
		cash, total := Totals(acct.Balances, prices)
		if !cash.Equal(v.Cash) || !total.Equal(v.Total) {
			t.Fatalf("Totals = %s, %s; Value = %s, %s", cash, total, v.Cash, v.Total)
		}
		for i, book := range acct.Positions {
			x, priced := PositionValue(book, prices)
			_, want := prices[book.Symbol]
			if priced != want || (priced && !x.Equal(v.Positions[i].CurrentValue)) {
				t.Fatalf("PositionValue(%s) = %s, %v; Value says %s", book.Symbol, x, priced, v.Positions[i].CurrentValue)
			}
		}
	}
}
