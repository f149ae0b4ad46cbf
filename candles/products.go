package candles

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Products are the trading rules of the shipped symbols as Coinbase publishes
// them (price increment, base increment and minimum size, read from its
// products listing): the replay moves prices in these steps and the sandbox
// exchange enforces them, so an order the sandbox takes would be taken there.
func Products() []domain.Product {
	cent, adaStep, sat := decimal.New(1, -2), decimal.New(1, -4), decimal.New(1, -8)
	mk := func(sym string, price decimal.Decimal) domain.Product {
		return domain.Product{Symbol: sym, BaseCurrency: domain.Base(sym), QuoteCurrency: domain.Quote(sym),
			PriceIncrement: price, SizeIncrement: sat, MinSize: sat}
	}
	return []domain.Product{mk("BTC-USD", cent), mk("ETH-USD", cent), mk("ADA-USD", adaStep), mk("SOL-USD", cent)}
}

// PriceIncrement is symbol's price step (a cent when the symbol is unknown).
func PriceIncrement(symbol string) decimal.Decimal {
	for _, p := range Products() {
		if p.Symbol == symbol {
			return p.PriceIncrement
		}
	}
	return decimal.New(1, -2)
}
