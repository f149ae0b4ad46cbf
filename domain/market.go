package domain

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Symbols the product trades.
var Symbols = []string{"BTC-USD", "ETH-USD", "ADA-USD", "SOL-USD"}

// Granularity is a candle width, named as Coinbase Advanced Trade names them.
type Granularity string

const (
	OneMinute     Granularity = "ONE_MINUTE"
	FiveMinute    Granularity = "FIVE_MINUTE"
	FifteenMinute Granularity = "FIFTEEN_MINUTE"
	ThirtyMinute  Granularity = "THIRTY_MINUTE"
	OneHour       Granularity = "ONE_HOUR"
	TwoHour       Granularity = "TWO_HOUR"
	SixHour       Granularity = "SIX_HOUR"
	OneDay        Granularity = "ONE_DAY"
)

// Duration returns the candle width, or 0 for an unknown granularity.
func (g Granularity) Duration() time.Duration {
	switch g {
	case OneMinute:
		return time.Minute
	case FiveMinute:
		return 5 * time.Minute
	case FifteenMinute:
		return 15 * time.Minute
	case ThirtyMinute:
		return 30 * time.Minute
	case OneHour:
		return time.Hour
	case TwoHour:
		return 2 * time.Hour
	case SixHour:
		return 6 * time.Hour
	case OneDay:
		return 24 * time.Hour
	}
	return 0
}

// Candle is one OHLCV bar; Time is its open time (UTC).
type Candle struct {
	Time   time.Time       `json:"timestamp"`
	Open   decimal.Decimal `json:"open"`
	High   decimal.Decimal `json:"high"`
	Low    decimal.Decimal `json:"low"`
	Close  decimal.Decimal `json:"close"`
	Volume decimal.Decimal `json:"volume"`
}

// Tick is one price update of a symbol.
type Tick struct {
	Symbol string          `json:"symbol"`
	Price  decimal.Decimal `json:"price"`
	// Volume traded since the previous tick (base units).
	Volume decimal.Decimal `json:"volume"`
	Time   time.Time       `json:"timestamp"`
}

// Ticker is a symbol's latest price with its book edges and 24h volume.
type Ticker struct {
	Symbol    string          `json:"symbol"`
	Price     decimal.Decimal `json:"price"`
	Bid       decimal.Decimal `json:"bid"`
	Ask       decimal.Decimal `json:"ask"`
	Volume24h decimal.Decimal `json:"volume_24h"`
	Time      time.Time       `json:"timestamp"`
}

// Stats24h summarises the last 24 hours of a symbol.
type Stats24h struct {
	Symbol        string          `json:"symbol"`
	Open          decimal.Decimal `json:"open"`
	High          decimal.Decimal `json:"high"`
	Low           decimal.Decimal `json:"low"`
	Last          decimal.Decimal `json:"last"`
	Volume        decimal.Decimal `json:"volume"`
	Change        decimal.Decimal `json:"change"`
	ChangePercent decimal.Decimal `json:"change_percent"`
}

// MarketData is a source of prices: the replayed market by default, a live
// exchange feed later. Implementations are safe for concurrent use.
type MarketData interface {
	// Symbols lists the tradable products.
	Symbols() []string
	// Ticker returns the latest price; not_found for an unknown symbol,
	// unavailable before the first price.
	Ticker(symbol string) (Ticker, error)
	// Stats returns the rolling 24h statistics.
	Stats(symbol string) (Stats24h, error)
	// Candles returns at most limit candles of width g that open in [start, end),
	// ascending, ending with the newest ones when more exist. Live candles
	// (not closed yet) are included last.
	Candles(ctx context.Context, symbol string, g Granularity, start, end time.Time, limit int) ([]Candle, error)
	// Subscribe delivers every tick of every symbol until ctx ends. A receiver
	// that falls behind loses ticks rather than slowing the feed.
	Subscribe(ctx context.Context) <-chan Tick
}

// SymbolName lets the realtime hub route a tick by symbol.
func (t Tick) SymbolName() string { return t.Symbol }

// SymbolName lets the realtime hub route a ticker by symbol.
func (t Ticker) SymbolName() string { return t.Symbol }
