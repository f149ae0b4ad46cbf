package paper

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// OnQuote matches the symbol's resting orders against a quote at time now:
// buy limits fill once the ask came down to them, sell limits once the bid
// came up to them, stops trigger once the last price reached them. Only the
// orders that trigger are touched. Orders that cannot be filled (a
// triggered buy stop without the funds) are rejected with the reason.
func (e *Engine) OnQuote(now time.Time, q Quote) Change {
	if _, known := e.products[q.Symbol]; !known || !q.Last.IsPositive() {
		return Change{}
	}
	tradeLow, tradeHigh := q.Low, q.High // the trades' own range: the last price may be older
	if q.Low.IsZero() || q.Low.GreaterThan(q.Last) {
		q.Low = q.Last
	}
	if q.High.IsZero() || q.High.LessThan(q.Last) {
		q.High = q.Last
	}
	e.quotes[q.Symbol] = q
	b := e.books[q.Symbol]
	type hit struct {
		id   string
		stop bool
	}
	var hits []hit
	for _, x := range [...]struct {
		bk   *book
		kind int8 // 0: buy limits, 1: sell limits, 2: sell stops, 3: buy stops
	}{{b.buyLimits, 0}, {b.sellLimits, 1}, {b.sellStops, 2}, {b.buyStops, 3}} {
		if x.bk.Len() == 0 {
			continue // nothing rests there: no price to work out
		}
		stop := x.kind >= 2
		var price decimal.Decimal
		switch x.kind {
		case 0:
			price = q.Low.Add(q.Ask.Sub(q.Last)) // the lowest the ask went
		case 1:
			price = q.High.Sub(q.Last.Sub(q.Bid)) // the highest the bid went
		case 2:
			price = q.Low
		default:
			price = q.High
		}
		if q.TradeThrough && !stop {
			if !q.Traded {
				continue // no trade printed: the book alone fills no resting limit
			}
			price = tradeHigh
			if x.kind == 0 {
				price = tradeLow
			}
		}
		for _, en := range x.bk.crossing(price) {
			hits = append(hits, hit{en.id, stop})
		}
	}
	trailing := e.idx.trailing[q.Symbol]
	if len(hits) == 0 && len(trailing) == 0 {
		return Change{}
	}
	t := e.begin(now)
	for _, h := range hits {
		o, live := t.current(h.id)
		if !live { // cancelled earlier in this quote by its group
			continue
		}
		if h.stop {
			t.trigger(&o)
			continue
		}
		qty := o.Remaining()
		if cap := e.cfg.MaxFillPerQuote; cap.IsPositive() && qty.GreaterThan(cap) {
			qty = cap
		}
		px := *o.Price
		// On a trade-through market a trade went through it: it fills at its
		// limit, as a resting order does; elsewhere at the book if better.
		if !q.TradeThrough && (o.Side == domain.Buy && q.Ask.LessThan(px) || o.Side == domain.Sell && q.Bid.GreaterThan(px)) {
			px = e.onGrid(o.Symbol, map[domain.Side]decimal.Decimal{domain.Buy: q.Ask, domain.Sell: q.Bid}[o.Side], o.Side)
		}
		t.fill(&o, qty, px, "maker")
	}
	// Then the trailing stops still live follow the quote: their marks move
	// to its high (SELL) or low (BUY), and their stops with them. In id
	// order, so a run is reproducible.
	ids := make([]string, 0, len(trailing))
	for id := range trailing {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		o, live := t.current(id)
		if !live {
			continue
		}
		o.Trail = copyTrail(o.Trail)
		if e.trail(&o, q.Low, q.High) {
			t.record(o, nil)
		}
	}
	return t.apply()
}

// trail moves trailing stop o's mark to the best of low..high (activating
// it first when its activation price is within that range) and its stop
// price with it. It reports whether anything changed.
func (e *Engine) trail(o *domain.Order, low, high decimal.Decimal) bool {
	tr := o.Trail
	best := high
	if o.Side == domain.Buy {
		best = low
	}
	if tr.Extreme == nil {
		if a := tr.Activation; a != nil && (o.Side == domain.Sell && high.LessThan(*a) || o.Side == domain.Buy && low.GreaterThan(*a)) {
			return false // not reached yet
		}
	} else if o.Side == domain.Sell && !best.GreaterThan(*tr.Extreme) || o.Side == domain.Buy && !best.LessThan(*tr.Extreme) {
		return false // no new high (low): the stop stays
	}
	tr.Extreme = &best
	stop := tr.Stop(o.Side, best, e.products[o.Symbol].PriceIncrement)
	if o.StopPrice != nil && o.StopPrice.Equal(stop) {
		return true // the mark moved, the stop (on its grid) did not
	}
	o.StopPrice = &stop
	return true
}

// trigger turns a stop into a market order and fills it, or rejects it.
// With a published book (the live market) it walks the book as a market
// order does, so a stop larger than the best level pays the next levels'
// prices; otherwise it fills at the quoted bid or ask. A stop with no
// price to fill at stays resting.
func (t *tx) trigger(o *domain.Order) {
	levels := liquid(t.e.depth(o.Symbol, o.Side))
	var px decimal.Decimal
	if len(levels) == 0 {
		p, err := t.e.takerPrice(o.Symbol, o.Side)
		if err != nil {
			return
		}
		px = p
	}
	t.cancelSiblings(*o)
	t.release(o) // a sell stop's hold is freed, then it fills as a market order
	o.Status = domain.StatusPending
	if len(levels) > 0 {
		if err := t.walk(o, levels); err != nil { // the walk's only refusal: not enough funds
			o.Status, o.RejectReason = domain.StatusRejected, MsgInsufficient
			t.record(*o, nil)
		}
		return
	}
	if !t.covers(*o, o.Remaining(), px, t.e.cfg.TakerFee) {
		o.Status, o.RejectReason = domain.StatusRejected, MsgInsufficient
		t.record(*o, nil)
		return
	}
	t.fill(o, o.Remaining(), px, "taker")
}

// onGrid rounds a book price onto the symbol's price grid, never better
// than the book (a limit is on the grid, so this never passes it).
func (e *Engine) onGrid(symbol string, px decimal.Decimal, side domain.Side) decimal.Decimal {
	step := e.products[symbol].PriceIncrement
	if side == domain.Buy {
		return px.Div(step).Ceil().Mul(step)
	}
	return px.Div(step).Floor().Mul(step)
}
