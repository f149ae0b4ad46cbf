package analytics

import (
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func decp(s string) *decimal.Decimal { d := dec(s); return &d }

// eq compares an amount by value and as the API prints it.
func eq(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) || got.String() != dec(want).String() {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func bal(currency, available, hold string) domain.Balance {
	return domain.Balance{Currency: currency, Available: dec(available), Hold: dec(hold)}
}

func book(symbol, qty, cost, realized string) domain.PositionBook {
	return domain.PositionBook{Symbol: symbol, Quantity: dec(qty), Cost: dec(cost), Realized: dec(realized)}
}

// held is an open position valued at a price, as Value produces it.
func held(symbol, qty, price string) domain.Position {
	return domain.Position{Symbol: symbol, Quantity: dec(qty), CurrentPrice: dec(price), CurrentValue: dec(qty).Mul(dec(price)).Round(2)}
}
