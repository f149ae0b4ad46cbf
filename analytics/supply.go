package analytics

import "github.com/shopspring/decimal"

// SupplyTable is the circulating supply of each tracked asset as of a
// stated date, shipped with the product: market capitalisation in the
// market view is price x this supply, so it drifts from an aggregator's
// figure as supply changes after AsOf.
type SupplyTable struct {
	AsOf   string                     `json:"asOf"`
	Source string                     `json:"source"`
	Note   string                     `json:"note"`
	Supply map[string]decimal.Decimal `json:"supply"` // by symbol, in base units
	// Unverified lists the symbols whose figure has not been checked against
	// a dated source that ships with or is cited by the product.
	Unverified []string `json:"unverified"`
}

// CirculatingSupply is the table the market view uses.
var CirculatingSupply = SupplyTable{
	AsOf: "2025-01-01",
	Source: "BTC: the protocol's issuance schedule (19,687,500 BTC at the April 2024 halving, block 840,000, " +
		"plus 3.125 BTC per block to about block 877,000); ETH, ADA, SOL: approximate circulating supply as public " +
		"market-data aggregators (CoinMarketCap, CoinGecko) showed it around 1 January 2025, unverified: no dated " +
		"figure from them ships with Kestrel to check against",
	Note: "Rounded to three or four significant figures; supply changes after the date (SOL and ADA issue new coins, " +
		"BTC about 0.8% a year), so market caps are approximate; ETH, ADA and SOL figures are unverified",
	Unverified: []string{"ETH-USD", "ADA-USD", "SOL-USD"},
	Supply: map[string]decimal.Decimal{
		"BTC-USD": decimal.NewFromInt(19_800_000),
		"ETH-USD": decimal.NewFromInt(120_500_000),
		"ADA-USD": decimal.NewFromInt(35_100_000_000),
		"SOL-USD": decimal.NewFromInt(481_000_000),
	},
}
