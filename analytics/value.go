package analytics

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// QuoteCurrency is the currency accounts are valued in: its balance is cash,
// every other currency is valued at its price against it.
const QuoteCurrency = "USD"

// Pair is the symbol that prices currency in the quote currency (BTC -> BTC-USD).
func Pair(currency string) string { return currency + "-" + QuoteCurrency }

// Prices are last prices by symbol (BTC-USD). A symbol without a price is
// left out of values rather than counted at zero or a stale price.
type Prices map[string]decimal.Decimal

// Valuation is one account snapshot valued at current prices, unrounded.
type Valuation struct {
	Cash  decimal.Decimal // quote currency, available plus on hold
	Total decimal.Decimal // cash plus every priced currency held, at its price
	// Positions is every position book valued, closed ones included (their
	// realized P&L counts).
	Positions []domain.Position
}

// Value values an account snapshot: balances and books come from one read,
// so a fill between two reads can never count twice. Balances are valued
// whole (available plus hold); a currency without a price adds nothing.
func Value(acct domain.Account, prices Prices) Valuation {
	v := Valuation{Positions: make([]domain.Position, 0, len(acct.Positions))}
	v.Cash, v.Total = Totals(acct.Balances, prices)
	for _, book := range acct.Positions {
		v.Positions = append(v.Positions, Position(book, prices))
	}
	return v
}

// Totals is Value's cash and total alone, for callers that need no
// positions (every order's risk check).
func Totals(balances []domain.Balance, prices Prices) (cash, total decimal.Decimal) {
	for _, b := range balances {
		if b.Currency == QuoteCurrency {
			cash = cash.Add(b.Total())
		} else if px, ok := prices[Pair(b.Currency)]; ok {
			total = total.Add(b.Total().Mul(px))
		}
	}
	return cash, total.Add(cash)
}

// PositionValue is Position's current value alone: the book at its
// symbol's price, to the cent; false without a price.
func PositionValue(book domain.PositionBook, prices Prices) (decimal.Decimal, bool) {
	px, ok := prices[book.Symbol]
	if !ok {
		return decimal.Decimal{}, false
	}
	return book.Quantity.Mul(px).Round(2), true
}

// Position values a book at its symbol's price: current value and
// unrealized P&L (value less cost basis) to the cent, P&L as a percentage of
// the cost basis. Without a price only the book's own figures are set.
func Position(book domain.PositionBook, prices Prices) domain.Position {
	pos := domain.Position{Symbol: book.Symbol, Quantity: book.Quantity, AvgPrice: book.AvgPrice(), RealizedPnL: book.Realized.Round(2)}
	px, ok := prices[book.Symbol]
	if !ok {
		return pos
	}
	value := book.Quantity.Mul(px)
	pos.CurrentPrice = px
	pos.CurrentValue = value.Round(2) // as PositionValue
	pos.UnrealizedPnL = value.Sub(book.Cost).Round(2)
	pos.PnLPercentage = percent(value.Sub(book.Cost), book.Cost)
	return pos
}

// OpenPositions keeps the positions with a positive quantity, in order.
func OpenPositions(positions []domain.Position) []domain.Position {
	out := []domain.Position{}
	for _, p := range positions {
		if p.Quantity.IsPositive() {
			out = append(out, p)
		}
	}
	return out
}

// Exposure is the current value of the open positions, to the cent.
func Exposure(positions []domain.Position) decimal.Decimal {
	sum := decimal.Zero
	for _, p := range OpenPositions(positions) {
		sum = sum.Add(p.CurrentValue)
	}
	return sum.Round(2)
}

// PnL is the change in value from start to end, unrounded.
func PnL(start, end decimal.Decimal) decimal.Decimal { return end.Sub(start) }
