package coinbase

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Updates implements domain.Exchange: every order change the adapter sees
// (its own calls, resyncs, the user channel), in order, until ctx ends.
func (x *Exchange) Updates(ctx context.Context) <-chan domain.TradeUpdate {
	return x.updates.Subscribe(ctx)
}

// refresh reads an order (and its fills when it traded since last seen),
// updates the live set and reports what changed: one update per new fill,
// or one for a change of status without a fill.
func (x *Exchange) refresh(ctx context.Context, id string) (domain.Order, error) {
	// One refresh at a time: the user channel, the resync and the adapter's
	// own calls may read the same order; each change is reported once, in order.
	x.refreshMu.Lock()
	defer x.refreshMu.Unlock()
	o, err := x.Order(ctx, id)
	if err != nil {
		return o, err
	}
	x.mu.Lock()
	prev, had := x.known(id)
	x.mu.Unlock()
	var fresh []domain.Fill
	if o.FilledQuantity.GreaterThan(prev.FilledQuantity) || (!had && o.FilledQuantity.IsPositive()) {
		raw, err := x.c.Fills(ctx, FillQuery{OrderIDs: []string{id}})
		if err != nil {
			return o, err
		}
		m := x.metaFor(ctx, id)
		horizon := x.opt.Now().Add(-x.opt.SeenFor)
		for i := len(raw) - 1; i >= 0; i-- { // oldest first
			f := toFill(raw[i], m)
			x.mu.Lock()
			_, dup := x.seen[f.ID]
			old := f.Time.Before(horizon) // history: past the window a reported id is forgotten
			if !dup && !old {
				x.seen[f.ID] = f.Time
			}
			x.mu.Unlock()
			if !dup && !old {
				fresh = append(fresh, f)
			}
		}
	}
	x.mu.Lock()
	if o.Status.Live() {
		x.live[id] = o
		x.closed.Delete(id)
	} else {
		delete(x.live, id)
		x.closed.Put(id, o)
	}
	x.mu.Unlock()
	var ups []domain.TradeUpdate
	for i := range fresh {
		ups = append(ups, domain.TradeUpdate{Order: o, Fill: &fresh[i], Journaled: x.opt.FillsNotified})
	}
	if len(ups) == 0 && (!had || prev.Status != o.Status || !prev.Quantity.Equal(o.Quantity) || !eqDec(prev.Price, o.Price) || !eqDec(prev.StopPrice, o.StopPrice)) {
		ups = append(ups, domain.TradeUpdate{Order: o})
	}
	x.updates.Tell(ups)
	return o, nil
}

// known is the last state reported of order id; callers hold mu.
func (x *Exchange) known(id string) (domain.Order, bool) {
	if o, ok := x.live[id]; ok {
		return o, true
	}
	return x.closed.Get(id)
}

// forgetOldFills drops fill ids past the SeenFor window (refresh treats
// such fills as history); callers hold mu.
func (x *Exchange) forgetOldFills() {
	horizon := x.opt.Now().Add(-x.opt.SeenFor)
	for id, t := range x.seen {
		if t.Before(horizon) {
			delete(x.seen, id)
		}
	}
}

func eqDec(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// Sync resyncs with Coinbase by REST: the open orders and the fills since
// the last ones seen. Orders that changed are refreshed and reported, so a
// message missed on the user channel (a gap, a reconnect) is never lost.
func (x *Exchange) Sync(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	err := x.sync(ctx)
	if err != nil {
		x.health.fail(x.opt.Now(), err)
	} else {
		x.health.ok(x.opt.Now())
	}
	return err
}

func (x *Exchange) sync(ctx context.Context) error {
	open, err := x.c.Orders(ctx, OrderQuery{Statuses: []string{"OPEN", "PENDING", "QUEUED"}, Products: x.opt.Symbols})
	if err != nil {
		return err
	}
	x.mu.Lock()
	mark := x.fillMark
	x.mu.Unlock()
	started := x.opt.Now()
	if mark.IsZero() { // the first sync: fills older than the window are history, not news
		mark = started.Add(-x.opt.SeenFor)
	}
	fills, err := x.c.Fills(ctx, FillQuery{Products: x.opt.Symbols, Start: mark})
	if err != nil {
		return err
	}
	changed := map[string]bool{}
	openIDs := map[string]bool{}
	x.mu.Lock()
	for _, o := range open {
		openIDs[o.OrderID] = true
		k, ok := x.known(o.OrderID)
		if !ok || status(o.Status) != k.Status || !dec(o.FilledSize).Equal(k.FilledQuantity) {
			changed[o.OrderID] = true
		}
	}
	for id := range x.live {
		if !openIDs[id] {
			changed[id] = true // closed since: filled, cancelled or expired
		}
	}
	horizon := started.Add(-x.opt.SeenFor)
	for _, f := range fills {
		if _, seen := x.seen[f.EntryID]; !seen && !parseTime(f.TradeTime).Before(horizon) {
			changed[f.OrderID] = true
		}
	}
	x.forgetOldFills()
	x.mu.Unlock()
	for id := range changed {
		if _, err := x.refresh(ctx, id); err != nil {
			return err
		}
	}
	x.mu.Lock()
	x.loaded = true
	// Fills are looked for again a minute back from the start of this sync,
	// so one recorded late at Coinbase is still found; seen ones are skipped.
	x.fillMark = started.Add(-time.Minute)
	x.mu.Unlock()
	return nil
}

// Poll resyncs every interval until ctx ends: the safety net under the
// user channel, and the whole feed of changes when it is down.
func (x *Exchange) Poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		x.health.beat(x.opt.Now())
		if err := x.Sync(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("coinbase resync failed; will retry", "err", err, "component", "exchange")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// health is what the adapter knows of its link to Coinbase.
type health struct {
	mu        sync.Mutex
	lastOK    time.Time
	lastErr   string
	lastErrAt time.Time
	lastBeat  time.Time
}

func (h *health) ok(now time.Time) { h.mu.Lock(); h.lastOK = now; h.mu.Unlock() }
func (h *health) fail(now time.Time, err error) {
	h.mu.Lock()
	h.lastErr, h.lastErrAt = err.Error(), now
	h.mu.Unlock()
}
func (h *health) beat(now time.Time) { h.mu.Lock(); h.lastBeat = now; h.mu.Unlock() }

// Health is the adapter's own account for the status screen: LastCommit is
// the last successful resync with Coinbase, LastError a later failed one,
// LastQuote the market feed's last price (WatchQuotes).
func (x *Exchange) Health() domain.ExchangeHealth {
	x.health.mu.Lock()
	defer x.health.mu.Unlock()
	h := domain.ExchangeHealth{LastCommit: x.health.lastOK}
	if x.health.lastErrAt.After(x.health.lastOK) {
		h.LastError, h.LastErrorAt = x.health.lastErr, x.health.lastErrAt
	}
	if x.quotes != nil {
		h.LastQuote = x.quotes()
	}
	return h
}

// WatchQuotes tells the adapter where to read the market feed's last price time.
func (x *Exchange) WatchQuotes(last func() time.Time) { x.quotes = last }

// LastBeat is when the resync loop (Poll) last went round.
func (x *Exchange) LastBeat() time.Time {
	x.health.mu.Lock()
	defer x.health.mu.Unlock()
	return x.health.lastBeat
}
