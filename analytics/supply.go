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
}

// CirculatingSupply is the table the market view uses.
var CirculatingSupply = SupplyTable{
	AsOf: "2025-01-01",
	Source: "BTC: the protocol's issuance schedule (19,687,500 BTC at the April 2024 halving, block 840,000, " +
		"plus 3.125 BTC per block to about block 877,000); ETH, ADA, SOL: circulating supply as published by public " +
		"market-data aggregators (CoinMarketCap, CoinGecko) around 1 January 2025",
	Note: "Rounded to three or four significant figures; supply changes after the date (SOL and ADA issue new coins, " +
		"BTC about 0.8% a year), so market caps are approximate",
	Supply: map[string]decimal.Decimal{
		"BTC-USD": decimal.NewFromInt(19_800_000),
		"ETH-USD": decimal.NewFromInt(120_500_000),
		"ADA-USD": decimal.NewFromInt(35_100_000_000),
		"SOL-USD": decimal.NewFromInt(481_000_000),
	},
}
