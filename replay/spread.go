package replay

import "github.com/shopspring/decimal"

// LiveHalfSpread is the half-spread the app's market quotes around the
// price (a fraction); backtests quote the same, so their fills pay what
// live fills pay.
var LiveHalfSpread = decimal.RequireFromString("0.00005")

// BidAsk quotes price with a half-spread (a fraction of the price) on a
// price grid of step: the bid rounded down, the ask up.
func BidAsk(price, halfSpread, step decimal.Decimal) (bid, ask decimal.Decimal) {
	half := price.Mul(halfSpread)
	return price.Sub(half).Div(step).Floor().Mul(step), price.Add(half).Div(step).Ceil().Mul(step)
}
