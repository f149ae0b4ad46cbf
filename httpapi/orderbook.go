package httpapi

import (
	"net/http"
	"time"

	"github.com/shopspring/decimal"
)

// BookDepth is how many levels a side the order book view carries.
const BookDepth = 25

// BookLevel is one price level of a book: the size resting at a price.
type BookLevel struct {
	Price decimal.Decimal `json:"price"`
	Size  decimal.Decimal `json:"size"`
}

// OrderBook is a symbol's level2 book as the live market holds it (GET
// /api/market-data/orderbook/{symbol} and the WebSocket's orderbook
// channel). Available is false, with the Reason, on the replay (which has
// no book) and while no whole book is held.
type OrderBook struct {
	Symbol    string      `json:"symbol"`
	Available bool        `json:"available"`
	Reason    string      `json:"reason,omitempty"`
	Source    string      `json:"source"` // where the book comes from
	Bids      []BookLevel `json:"bids"`   // best (highest) first
	Asks      []BookLevel `json:"asks"`   // best (lowest) first
	Time      time.Time   `json:"time"`   // when it was read
}

// SymbolName implements ws.Symboler.
func (b OrderBook) SymbolName() string { return b.Symbol }

// orderBook answers the symbol's book as the market holds it now.
func (s *Server) orderBook(w http.ResponseWriter, r *http.Request) {
	sym, err := s.symbolParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, s.d.OrderBook(sym))
}
