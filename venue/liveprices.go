package venue

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/paper"
)

// bookDepth is how many levels a side of Coinbase's book the paper engine
// sees: far more than a paper market order walks in practice.
const bookDepth = 200

// LivePrices is Coinbase's live market as the paper engine reads it: the
// ticker, and the level2 book its market orders walk.
type LivePrices struct{ Feed *coinbase.Feed }

func (p LivePrices) Ticker(symbol string) (domain.Ticker, error) { return p.Feed.Ticker(symbol) }

func (p LivePrices) Depth(symbol string) (bids, asks []paper.Level, ok bool) {
	b, a, ok := p.Feed.Book(symbol, bookDepth)
	if !ok {
		return nil, nil, false
	}
	conv := func(ls []coinbase.BookLevel) []paper.Level {
		out := make([]paper.Level, len(ls))
		for i, l := range ls {
			out[i] = paper.Level{Price: l.Price, Size: l.Size}
		}
		return out
	}
	return conv(b), conv(a), true
}

// Range is the range Coinbase's trades printed in: resting paper limits
// fill only when a trade went through them.
func (p LivePrices) Range(symbol string, from, to time.Time) (low, high decimal.Decimal, ok bool) {
	return p.Feed.Range(symbol, from, to)
}

// TradeThrough marks the live market as one that reports its trades.
func (LivePrices) TradeThrough() bool { return true }
