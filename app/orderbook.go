package app

import (
	"context"
	"fmt"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/httpapi"
	"kestrel/httpapi/ws"
)

// bookMarket is a market that holds Coinbase's level2 book (coinbase.Feed).
type bookMarket interface {
	Book(symbol string, depth int) (bids, asks []coinbase.BookLevel, ok bool)
}

// bookEvery is the least time between two order book frames of a symbol:
// level2 changes many times a second, a screen needs a few.
const bookEvery = 500 * time.Millisecond

// orderBook is symbol's book as the current venue's market holds it.
func (a *App) orderBook(symbol string) httpapi.OrderBook {
	out := httpapi.OrderBook{Symbol: symbol, Bids: []httpapi.BookLevel{}, Asks: []httpapi.BookLevel{}, Time: time.Now().UTC()}
	v := a.current()
	if v == nil {
		out.Reason = "The market is starting."
		return out
	}
	m, live := v.Market.(bookMarket)
	if !live || v.MarketSource != "coinbase" {
		out.Source = v.Source
		out.Reason = "No order book on the replay: it replays Coinbase candles, which carry no book. Set the market source to Coinbase (Settings) to see Coinbase's live level2 book."
		return out
	}
	out.Source = "Coinbase level2"
	bids, asks, ok := m.Book(symbol, httpapi.BookDepth)
	if !ok {
		out.Reason = "Waiting for Coinbase's level2 snapshot of " + symbol + " (after connecting, or after a lost message the book is dropped until the next snapshot)."
		return out
	}
	out.Available = true
	for _, l := range bids {
		out.Bids = append(out.Bids, httpapi.BookLevel{Price: l.Price, Size: l.Size})
	}
	for _, l := range asks {
		out.Asks = append(out.Asks, httpapi.BookLevel{Price: l.Price, Size: l.Size})
	}
	return out
}

// publishBooks sends each symbol's book on the WebSocket's orderbook
// channel at most every bookEvery, only when it changed (and once when it
// becomes unavailable), until ctx ends.
func (a *App) publishBooks(ctx context.Context) {
	t := time.NewTicker(bookEvery)
	defer t.Stop()
	last := map[string]string{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, sym := range a.Market.Symbols() {
			b := a.orderBook(sym)
			key := fmt.Sprint(b.Available, b.Reason, b.Bids, b.Asks)
			if last[sym] == key {
				continue
			}
			last[sym] = key
			a.Hub.Broadcast(ws.ChannelOrderBook, "orderbook", sym, b, b.Time)
		}
	}
}
