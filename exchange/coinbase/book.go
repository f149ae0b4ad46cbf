package coinbase

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// WSLevel2Update is one price level of the level2 channel ("l2_data"
// messages): side bid or offer; a new_quantity of 0 removes the level.
type WSLevel2Update struct {
	Side        string `json:"side"`
	EventTime   string `json:"event_time"`
	PriceLevel  string `json:"price_level"`
	NewQuantity string `json:"new_quantity"`
}

// WSLevel2Event is a level2 snapshot (the whole book, on subscribing) or update.
type WSLevel2Event struct {
	Type      string           `json:"type"`
	ProductID string           `json:"product_id"`
	Updates   []WSLevel2Update `json:"updates"`
}

// BookLevel is one level of a book: the size resting at a price.
type BookLevel struct{ Price, Size decimal.Decimal }

// l2Book is one product's book: size by price, per side.
type l2Book struct{ bids, asks map[string]BookLevel }

// FollowBook makes the feed subscribe Coinbase's level2 channel and keep
// each product's book (call before Start).
func (f *Feed) FollowBook() {
	f.mu.Lock()
	f.depth = true
	f.mu.Unlock()
}

func (f *Feed) followsBook() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.depth
}

// dropBooks forgets the books: after a reconnect or a lost message they
// are not known to be Coinbase's until the next snapshot.
func (f *Feed) dropBooks() {
	f.mu.Lock()
	f.books = nil
	f.mu.Unlock()
}

func (f *Feed) onLevel2(events []json.RawMessage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, raw := range events {
		var ev WSLevel2Event
		if json.Unmarshal(raw, &ev) != nil {
			continue
		}
		b := f.books[ev.ProductID]
		switch {
		case ev.Type == "snapshot":
			b = &l2Book{bids: map[string]BookLevel{}, asks: map[string]BookLevel{}}
			if f.books == nil {
				f.books = map[string]*l2Book{}
			}
			f.books[ev.ProductID] = b
		case b == nil:
			continue // an update to a book whose snapshot is not held
		}
		for _, u := range ev.Updates {
			px, err1 := decimal.NewFromString(u.PriceLevel)
			sz, err2 := decimal.NewFromString(u.NewQuantity)
			side := b.bids
			if u.Side == "offer" {
				side = b.asks
			}
			if err1 != nil || err2 != nil {
				continue
			}
			if sz.IsPositive() {
				side[px.String()] = BookLevel{Price: px, Size: sz}
			} else {
				delete(side, px.String())
			}
		}
		f.lastAt = f.now()
	}
}

// Book returns symbol's level2 book, best first on each side (bids high
// to low, asks low to high), at most depth levels a side; ok is false
// while no whole book is held (level2 not followed, no snapshot yet, or a
// message lost since).
func (f *Feed) Book(symbol string, depth int) (bids, asks []BookLevel, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.books[symbol]
	if b == nil {
		return nil, nil, false
	}
	return sorted(b.bids, true, depth), sorted(b.asks, false, depth), true
}

func sorted(side map[string]BookLevel, desc bool, depth int) []BookLevel {
	out := make([]BookLevel, 0, len(side))
	for _, l := range side {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if desc {
			return out[i].Price.GreaterThan(out[j].Price)
		}
		return out[i].Price.LessThan(out[j].Price)
	})
	if depth > 0 && len(out) > depth {
		out = out[:depth]
	}
	return out
}

// tradePrint is one market_trades trade: when and at what price.
type tradePrint struct {
	at    time.Time
	price decimal.Decimal
}

// keepPrints bounds the trades kept per product: a paper engine reads the
// range since its last tick, seconds back.
const keepPrints = 4096

// printed records a trade (callers hold mu).
func (f *Feed) printed(t WSTrade) {
	at, px := parseTime(t.Time), dec(t.Price)
	if at.IsZero() || !px.IsPositive() {
		return
	}
	if f.prints == nil {
		f.prints = map[string][]tradePrint{}
	}
	ps := append(f.prints[t.ProductID], tradePrint{at, px})
	if len(ps) > keepPrints {
		ps = slices.Clone(ps[len(ps)-keepPrints:])
	}
	f.prints[t.ProductID] = ps
}

// Range is the lowest and highest price symbol traded at after from and
// up to to (market_trades); ok is false when no trade printed then.
func (f *Feed) Range(symbol string, from, to time.Time) (low, high decimal.Decimal, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.prints[symbol] {
		if !p.at.After(from) || p.at.After(to) {
			continue
		}
		if !ok {
			low, high, ok = p.price, p.price, true
			continue
		}
		low, high = decimal.Min(low, p.price), decimal.Max(high, p.price)
	}
	return low, high, ok
}
