package coinbasefake

import (
	"sort"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// WSLevel2Update is one price level on the level2 channel: side is "bid"
// or "offer", a new_quantity of 0 removes the level.
type WSLevel2Update struct {
	Side        string `json:"side"`
	EventTime   string `json:"event_time"`
	PriceLevel  string `json:"price_level"`
	NewQuantity string `json:"new_quantity"`
}

// WSLevel2Event is one event of the level2 channel (its messages' channel
// is "l2_data"): a snapshot of the whole book on subscribing, then updates.
type WSLevel2Event struct {
	Type      string           `json:"type"`
	ProductID string           `json:"product_id"`
	Updates   []WSLevel2Update `json:"updates"`
}

// Level is a price level a test sets: price and size, as Coinbase writes them.
type Level struct{ Price, Size string }

// SetBook replaces product's order book (bids and asks, any order) and
// sends the difference to level2 subscribers: changed levels with their new
// size, removed ones with 0. The fake's own matching still uses SetPrice.
func (f *Fake) SetBook(product string, bids, asks []Level) {
	f.mu.Lock()
	if f.l2 == nil {
		f.l2 = map[string]map[string]map[string]decimal.Decimal{}
	}
	old := f.l2[product]
	next := map[string]map[string]decimal.Decimal{"bid": {}, "offer": {}}
	for side, ls := range map[string][]Level{"bid": bids, "offer": asks} {
		for _, l := range ls {
			next[side][decimal.RequireFromString(l.Price).String()] = decimal.RequireFromString(l.Size)
		}
	}
	f.l2[product] = next
	now := f.now().UTC().Format(time.RFC3339Nano)
	var ups []WSLevel2Update
	for _, side := range []string{"bid", "offer"} {
		for px, sz := range next[side] {
			if prev, had := old[side][px]; !had || !prev.Equal(sz) {
				ups = append(ups, WSLevel2Update{Side: side, EventTime: now, PriceLevel: px, NewQuantity: sz.String()})
			}
		}
		for px := range old[side] {
			if _, kept := next[side][px]; !kept {
				ups = append(ups, WSLevel2Update{Side: side, EventTime: now, PriceLevel: px, NewQuantity: "0"})
			}
		}
	}
	f.mu.Unlock()
	sortLevels(ups)
	if len(ups) > 0 {
		f.user.l2Publish(product, WSLevel2Event{Type: "update", ProductID: product, Updates: ups})
	}
}

func sortLevels(ups []WSLevel2Update) {
	sort.SliceStable(ups, func(i, j int) bool {
		if ups[i].Side != ups[j].Side {
			return ups[i].Side < ups[j].Side
		}
		return decimal.RequireFromString(ups[i].PriceLevel).LessThan(decimal.RequireFromString(ups[j].PriceLevel))
	})
}

// l2Snapshots sends a subscriber the current book of each product it asked
// for (every product with a book when it named none).
func (u *userFeed) l2Snapshots(c *wsConn, products []string) {
	u.f.mu.Lock()
	if len(products) == 0 {
		for p := range u.f.l2 {
			products = append(products, p)
		}
		sort.Strings(products)
	}
	now := u.f.now().UTC().Format(time.RFC3339Nano)
	var evs []any
	for _, p := range products {
		ev := WSLevel2Event{Type: "snapshot", ProductID: p, Updates: []WSLevel2Update{}}
		for side, ls := range u.f.l2[p] {
			for px, sz := range ls {
				ev.Updates = append(ev.Updates, WSLevel2Update{Side: side, EventTime: now, PriceLevel: px, NewQuantity: sz.String()})
			}
		}
		sortLevels(ev.Updates)
		evs = append(evs, ev)
	}
	u.f.mu.Unlock()
	for _, ev := range evs {
		u.send(c, "l2_data", []any{ev})
	}
}

// l2Publish sends a level2 event to the connections subscribed for product.
func (u *userFeed) l2Publish(product string, ev WSLevel2Event) {
	u.mu.Lock()
	conns := make([]*wsConn, 0, len(u.conns))
	for c := range u.conns {
		conns = append(conns, c)
	}
	u.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		set := c.subs["level2"]
		on := set != nil && (set[""] || set[product])
		c.mu.Unlock()
		if !on {
			continue
		}
		u.mu.Lock()
		lost := u.mdrop > 0
		if lost {
			u.mdrop--
		}
		u.mu.Unlock()
		if lost { // its number is used, so the next message shows the gap
			c.mu.Lock()
			c.seq++
			c.mu.Unlock()
			continue
		}
		u.send(c, "l2_data", []any{ev})
	}
}

// DropMarketMessages makes the WebSocket lose the next n level2 messages it
// would send, their sequence numbers still used (a gap, as at Coinbase).
func (f *Fake) DropMarketMessages(n int) {
	f.user.mu.Lock()
	f.user.mdrop = max(f.user.mdrop+n, 0)
	f.user.mu.Unlock()
}

// PrintTrade sends a trade between other traders on market_trades (the
// account's own executions go out by themselves): side is the taker's,
// BUY or SELL, as Coinbase reports it.
func (f *Fake) PrintTrade(product, price, size, side string) {
	f.mu.Lock()
	f.trades++
	f.tape = append(f.tape, WSTrade{TradeID: strconv.Itoa(f.trades), ProductID: product, Price: decimal.RequireFromString(price).String(),
		Size: decimal.RequireFromString(size).String(), Side: side, Time: f.now().UTC().Format(time.RFC3339Nano)})
	f.mu.Unlock()
	f.flushTape()
}
