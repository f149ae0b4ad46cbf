package coinbase

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// DefaultTrailEvery spaces the edits of one trailing stop. Each move costs
// three requests (a read, the edit, a read-back) against Kestrel's default
// cap of 10 a second, shared with orders and the resync poll (every 5 s):
// at most 0.6 a second per trailing stop, so even five moving at once leave
// most of the cap to orders, while a stop lags a rising market by at most
// five seconds of movement, far less than any trail a trader sets.
const DefaultTrailEvery = 5 * time.Second

// trailState is what the adapter follows of one trailing stop.
type trailState struct {
	trail  domain.Trail    // distance, activation and mark, as stored
	target decimal.Decimal // the stop the mark gives (zero before activation)
	tried  time.Time       // the last edit sent: the rate limit
	// refused counts the edits Coinbase refused in a row; the alert is
	// raised once when it reaches TrailRefusalsAlert.
	refused int
}

// TrailRefusalsAlert is how many refused edits in a row of one trailing
// stop raise an alert: one can be a passing refusal (the price moved as
// the edit was sent), three at least 10 s apart are a stop left behind.
const TrailRefusalsAlert = 3

// startTrail sets a new trailing stop's first stop price from the price
// now: at the trail from that price, and from then on from the mark. Until
// the activation price is reached no mark is kept and the stop rests where
// it was placed, so the position is guarded from the start (Coinbase
// needs a real resting stop). A request carrying a mark (a replacement)
// trails on from it.
func (x *Exchange) startTrail(ctx context.Context, p domain.Product, req *domain.OrderRequest) (*domain.Trail, error) {
	if f := domain.CheckTrail(req.Trail); f != nil {
		return nil, domain.FieldErrors(f, "trail_percent", "trail_amount", "activation_price")
	}
	last, err := x.lastPrice(ctx, req.Symbol)
	if err != nil {
		return nil, err
	}
	tr := *req.Trail
	from := last
	switch {
	case tr.Extreme != nil:
		from = *tr.Extreme
	case reached(req.Side, tr.Activation, last):
		tr.Extreme = &last
	}
	stop := tr.Stop(req.Side, from, p.PriceIncrement)
	if !stop.IsPositive() {
		return nil, domain.FieldErrors(map[string]string{"trail_amount": "The trail is wider than the price: the stop would be at or below zero"}, "trail_amount")
	}
	req.StopPrice = &stop
	return &tr, nil
}

// lastPrice is Coinbase's last trade price of symbol.
func (x *Exchange) lastPrice(ctx context.Context, symbol string) (decimal.Decimal, error) {
	pc := x.c
	if x.opt.Products != nil { // Coinbase's sandbox serves no market data
		pc = x.opt.Products
	}
	page, err := pc.Ticker(ctx, symbol)
	if err != nil {
		return decimal.Zero, err
	}
	if len(page.Trades) == 0 || !dec(page.Trades[0].Price).IsPositive() {
		return decimal.Zero, domain.Errorf(domain.EUnavailable, "No price from Coinbase for %s yet", symbol)
	}
	return dec(page.Trades[0].Price), nil
}

// reached reports whether price has reached a trail's activation price (at
// or above it for a SELL, at or below for a BUY); no activation price is
// reached at once.
func reached(side domain.Side, activation *decimal.Decimal, price decimal.Decimal) bool {
	if activation == nil {
		return true
	}
	if side == domain.Sell {
		return price.GreaterThanOrEqual(*activation)
	}
	return price.LessThanOrEqual(*activation)
}

// Follow moves the trailing stops of a tick's symbol after the market. The
// venue calls it with each tick of the live feed, on the instance running
// the engine. The mark follows each new high (a BUY's each new low) and is
// stored whenever the stop it gives moves; the stop at Coinbase is raised
// by an edit (never lowered) when the mark's stop is at least one price
// increment better, at most once per TrailEvery per order.
func (x *Exchange) Follow(ctx context.Context, t domain.Tick) {
	if !t.Price.IsPositive() {
		return
	}
	x.stopMu.Lock()
	defer x.stopMu.Unlock()
	p, err := x.product(ctx, t.Symbol)
	if err != nil {
		return
	}
	for _, o := range x.trailing(t.Symbol) {
		st := x.trailFor(ctx, o, p.PriceIncrement)
		if st.move(o.Side, t.Price, p.PriceIncrement) {
			x.saveTrail(ctx, o.ID, st.trail)
		}
		if x.due(st, o, t.Price, p.PriceIncrement) {
			x.raise(ctx, p, o.ID, st)
		}
	}
}

// trailing is the live trailing stops of symbol as last seen, in id order;
// the state of those no longer live is dropped. Callers hold stopMu.
func (x *Exchange) trailing(symbol string) []domain.Order {
	x.mu.Lock()
	defer x.mu.Unlock()
	for id := range x.trails {
		if _, ok := x.live[id]; !ok {
			delete(x.trails, id)
		}
	}
	var out []domain.Order
	for _, o := range x.live {
		if o.Symbol == symbol && o.Type == domain.TrailingStop && o.StopPrice != nil {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// trailFor is the state of trailing stop o, read from the store the first
// time (after a restart, or on the instance taking over the engine, the
// stored mark is the one to trail on from). Callers hold stopMu.
func (x *Exchange) trailFor(ctx context.Context, o domain.Order, inc decimal.Decimal) *trailState {
	if st, ok := x.trails[o.ID]; ok {
		return st
	}
	tr := *o.Trail
	if stored, ok := x.storedMeta(ctx, o.ID); ok && stored.Trail != nil {
		tr = *stored.Trail
	}
	st := &trailState{trail: tr}
	if tr.Extreme != nil {
		st.target = tr.Stop(o.Side, *tr.Extreme, inc)
	}
	x.trails[o.ID] = st
	return st
}

// storedMeta reads an order's details from the store, not memory: another
// instance may have moved its mark since this one read it.
func (x *Exchange) storedMeta(ctx context.Context, id string) (meta, bool) {
	var m meta
	if x.opt.Meta == nil {
		return m, false
	}
	raw, err := x.opt.Meta.GetValue(ctx, "coinbase.order."+id)
	return m, err == nil && json.Unmarshal([]byte(raw), &m) == nil
}

// saveTrail stores a trailing stop's moved mark with the order's details.
func (x *Exchange) saveTrail(ctx context.Context, id string, tr domain.Trail) {
	m := x.metaFor(ctx, id)
	m.Trail = &tr
	x.saveMeta(ctx, id, m)
}

// move takes price into the mark (activating the trail when price reaches
// its activation price) and reports whether the stop the mark gives moved.
func (st *trailState) move(side domain.Side, price, inc decimal.Decimal) bool {
	tr := &st.trail
	switch {
	case tr.Extreme == nil && !reached(side, tr.Activation, price):
		return false
	case tr.Extreme != nil && (side == domain.Sell && !price.GreaterThan(*tr.Extreme) || side == domain.Buy && !price.LessThan(*tr.Extreme)):
		return false
	}
	tr.Extreme = &price
	stop := tr.Stop(side, price, inc)
	if stop.Equal(st.target) {
		return false
	}
	st.target = stop
	return true
}

// due reports whether trailing stop o should be edited to its target now:
// the target is at least one increment better than the stop (never worse),
// still on the safe side of price (Coinbase refuses a stop the price has
// reached; the stop resting triggers instead), and the last edit is
// TrailEvery old.
func (x *Exchange) due(st *trailState, o domain.Order, price, inc decimal.Decimal) bool {
	if !st.target.IsPositive() || x.opt.Now().Sub(st.tried) < x.opt.TrailEvery {
		return false
	}
	return better(o.Side, st.target, *o.StopPrice, inc) &&
		(o.Side == domain.Sell && st.target.LessThan(price) || o.Side == domain.Buy && st.target.GreaterThan(price))
}

// better reports whether stop next guards at least one increment more
// than cur: higher for a SELL, lower for a BUY.
func better(side domain.Side, next, cur, inc decimal.Decimal) bool {
	if side == domain.Sell {
		return next.Sub(cur).GreaterThanOrEqual(inc)
	}
	return cur.Sub(next).GreaterThanOrEqual(inc)
}

// raise edits trailing stop id to its target. The order is read first, so
// the edit carries Coinbase's own size and is made only while the stop is
// live, untriggered and behind the target. A refused edit leaves the stop
// where it was (still guarding); a lost answer is settled by reading the
// order back, and an edit that did not land is sent again no sooner than
// the next round. Callers hold stopMu.
func (x *Exchange) raise(ctx context.Context, p domain.Product, id string, st *trailState) {
	st.tried = x.opt.Now()
	cur, err := x.refresh(ctx, id)
	if err != nil || !cur.Status.Live() || cur.FilledQuantity.IsPositive() || cur.StopPrice == nil ||
		!better(cur.Side, st.target, *cur.StopPrice, p.PriceIncrement) {
		return
	}
	target := st.target
	req := domain.OrderRequest{Side: cur.Side, Quantity: cur.Quantity, StopPrice: &target}
	resp, err := x.c.EditOrder(ctx, x.editFor(p, id, req))
	switch {
	case unknownOutcome(err):
		slog.Warn("coinbase trailing stop edit unconfirmed; reading the order", "order_id", id, "stop", target, "err", err, "component", "exchange")
	case err != nil:
		slog.Warn("coinbase trailing stop not moved; it stays where it was", "order_id", id, "stop", cur.StopPrice, "err", err, "component", "exchange")
		x.trailRefused(ctx, st, cur, target, err)
		return
	case !resp.Success && !equalEdit(resp):
		slog.Warn("coinbase refused to move a trailing stop; it stays where it was", "order_id", id, "stop", cur.StopPrice,
			"to", target, "err", domain.ErrorMessage(editRejection(resp)), "component", "exchange")
		x.trailRefused(ctx, st, cur, target, editRejection(resp))
		return
	}
	got, err := x.refresh(ctx, id)
	if err != nil {
		slog.Warn("read back a trailing stop", "order_id", id, "err", err, "component", "exchange")
		return
	}
	if got.StopPrice != nil && !better(got.Side, target, *got.StopPrice, p.PriceIncrement) { // it moved
		if st.refused >= TrailRefusalsAlert && x.opt.ResolveAlert != nil {
			x.opt.ResolveAlert(ctx, trailAlertKey(id)) // the alert is no longer true
		}
		st.refused = 0
	}
}

// trailRefused counts a refused edit of trailing stop cur; the
// TrailRefusalsAlert-th in a row raises an alert naming the order, where
// the stop rests and where it should be. The stop keeps guarding where it
// is; a later edit that lands starts the count again.
func (x *Exchange) trailRefused(ctx context.Context, st *trailState, cur domain.Order, target decimal.Decimal, err error) {
	st.refused++
	if st.refused != TrailRefusalsAlert || x.opt.Alert == nil {
		return
	}
	x.opt.Alert(ctx, trailAlertKey(cur.ID), "high", "Trailing stop not moved",
		fmt.Sprintf("Coinbase refused %d edits in a row of trailing stop %s (%s %s %s): it stays at %s, where it still guards the position, instead of %s. Last refusal: %s",
			st.refused, cur.ID, cur.Side, cur.Quantity, cur.Symbol, *cur.StopPrice, target, domain.ErrorMessage(err)))
}

// trailAlertKey is the alert key of trailing stop id's refused edits.
func trailAlertKey(id string) string { return "coinbase:trailing-stop:" + id }
