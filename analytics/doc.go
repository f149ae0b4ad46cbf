// Package analytics is Kestrel's portfolio and performance maths as pure
// functions: values, P&L, summaries and risk metrics computed from domain
// values the caller has already read. It does no I/O, reads no clock and
// keeps no state, so the live summaries, the analytics API and backtest
// reports get the same numbers from the same inputs. Money (values, P&L,
// exposure, percentages of money) is decimal; float64 is used only for
// statistics (returns, ratios such as Sharpe, the win rate field).
package analytics

import "github.com/shopspring/decimal"

var hundred = decimal.NewFromInt(100)

// percent is part/whole as a percentage rounded to cents, zero when whole
// is not positive (a share of nothing is no share).
func percent(part, whole decimal.Decimal) decimal.Decimal {
	if !whole.IsPositive() {
		return decimal.Zero
	}
	return part.Div(whole).Mul(hundred).Round(2)
}
