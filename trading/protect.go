package trading

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/events"
)

// Run follows the exchange's order updates until ctx ends: it publishes
// each to the realtime bus, attaches protective orders to BUY fills and
// records the portfolio value after fills. Updates are queued so the
// exchange never waits on this loop's own orders.
func (s *Service) Run(ctx context.Context) {
	in := s.d.Exchange.Updates(ctx)
	s.ProtectMissed(ctx)
	var mu sync.Mutex
	var queue []domain.TradeUpdate
	wake := make(chan struct{}, 1)
	go func() {
		for u := range in {
			mu.Lock()
			queue = append(queue, u)
			mu.Unlock()
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	var last time.Time       // when fills last recorded the portfolio value
	var due <-chan time.Time // a recording owed to fills that came too soon after the last
	record := func() {
		last, due = time.Now(), nil
		if err := s.RecordPortfolio(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("record portfolio value", "err", err)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-due:
			record()
			continue
		case <-wake:
		}
		mu.Lock()
		batch := queue
		queue = nil
		mu.Unlock()
		filled := false
		for _, u := range batch {
			s.handle(ctx, u)
			filled = filled || u.Fill != nil
		}
		switch {
		case !filled:
		case time.Since(last) >= recordAfterFillsEvery:
			record()
		case due == nil:
			due = time.After(recordAfterFillsEvery - time.Since(last))
		}
	}
}

// recordAfterFillsEvery spaces the portfolio values recorded after fills: a
// burst of fills records at once and then once more when it is over, instead
// of one stored value (and one commit) per batch of fills.
const recordAfterFillsEvery = time.Second

func (s *Service) handle(ctx context.Context, u domain.TradeUpdate) {
	if s.d.Bus != nil {
		s.d.Bus.Publish(events.TopicTradeUpdate, u, time.Now())
	}
	if u.Order.Status == domain.StatusRejected {
		s.d.Alert(ctx, "medium", "Order rejected by the exchange", fmt.Sprintf("%s %s %s %s: %s", u.Order.Type, u.Order.Side, u.Order.Quantity, u.Order.Symbol, u.Order.RejectReason))
	}
	if u.Fill != nil && u.Fill.Side == domain.Buy && u.Order.ParentID == "" {
		s.Protect(ctx, u.Order, *u.Fill)
		s.markProtected(ctx, u.Fill.Time)
	}
}

// kvProtected is the time of the last BUY fill whose protection was handled,
// so fills made while the process was down are protected when it is back.
const kvProtected = "trading.protected_through"

func (s *Service) markProtected(ctx context.Context, t time.Time) {
	if err := s.d.Store.PutValue(ctx, kvProtected, t.UTC().Format(time.RFC3339Nano)); err != nil {
		slog.Warn("record protected fills", "err", err)
	}
}

// ProtectMissed attaches protective orders to BUY fills made after the
// last one handled (the process stopped between a fill and its protection).
// Client order ids derived from each fill make this safe to repeat. A new
// account starts its mark now: fills from before protection existed are not
// protected after the fact.
func (s *Service) ProtectMissed(ctx context.Context) {
	raw, err := s.d.Store.GetValue(ctx, kvProtected)
	if domain.ErrorCode(err) == domain.ENotFound {
		s.markProtected(ctx, s.d.Clock.Now())
		return
	}
	since, perr := time.Parse(time.RFC3339Nano, raw)
	if err != nil || perr != nil {
		slog.Warn("read protected-fills mark", "err", err, "parse", perr)
		return
	}
	fills, err := s.d.Exchange.Fills(ctx, domain.FillFilter{Since: since, Limit: 10000})
	if err != nil {
		slog.Warn("list fills to protect", "err", err)
		return
	}
	for i := len(fills) - 1; i >= 0; i-- { // oldest first
		f := fills[i]
		if f.Side != domain.Buy {
			continue
		}
		parent, err := s.d.Exchange.Order(ctx, f.OrderID)
		if err != nil || parent.ParentID != "" {
			continue
		}
		s.Protect(ctx, parent, f)
		s.markProtected(ctx, f.Time)
	}
}

// Protect attaches the protective orders the settings ask for to one BUY
// fill (ProtectiveOrders: a stop-loss SELL at fill price x
// (1 - stopLossPercent) and a take-profit limit SELL at fill price x
// (1 + takeProfitPercent), for the filled quantity still free, in one
// one-cancels-other group). Client order ids derived from the fill make a
// retry harmless. Failures raise an alert: the position is then
// unprotected and the trader must know.
func (s *Service) Protect(ctx context.Context, parent domain.Order, f domain.Fill) []domain.Order {
	p := s.d.Policy()
	if !p.StopLoss && !p.TakeProfit {
		return nil
	}
	step := candles.PriceIncrement(f.Symbol)
	if products, err := s.d.Exchange.Products(ctx); err == nil {
		for _, pr := range products {
			if pr.Symbol == f.Symbol {
				step = pr.PriceIncrement
			}
		}
	}
	// Serialised with Place and Modify: a SELL racing this protection either
	// sees the protective orders (and takes its quantity from them) or has
	// already sold, and then only what is still held is protected.
	s.mu.Lock()
	defer s.mu.Unlock()
	free := f.Quantity // balances unknown: the fill as it is
	if bals, err := s.d.Exchange.Balances(ctx); err == nil {
		free = decimal.Zero
		for _, b := range bals {
			if b.Currency == domain.Base(f.Symbol) {
				free = b.Available
			}
		}
	}
	if !ProtectiveQuantity(f.Quantity, free).IsPositive() {
		slog.Info("nothing left to protect: the position was sold first", "order", parent.ID, "fill", f.ID)
		return nil
	}
	reqs := ProtectiveOrders(p.Protection(), ProtectiveFill{Parent: parent, Key: f.ID, ClientIDs: true, Price: f.Price,
		Quantity: f.Quantity, Free: free, Step: step})
	var out []domain.Order
	placed := false
	defer func() {
		if placed { // protected afresh: an older reduction is history
			s.clearReduced(ctx, f.Symbol)
		}
	}()
	for _, r := range reqs {
		o, err := s.d.Exchange.PlaceOrder(ctx, r)
		if err != nil {
			s.d.Alert(ctx, "high", protectiveFailed(err), fmt.Sprintf("%s %s %s for BUY %s: %s",
				r.Type, r.Quantity, r.Symbol, parent.ID, domain.ErrorMessage(err)))
			continue
		}
		if o.Status != domain.StatusRejected {
			s.placed()
			placed = true
		}
		out = append(out, o)
	}
	return out
}

// protectiveFailed titles the alert for a protective order that failed: an
// exchange that may have placed it (outcome unknown) is not said to have
// refused it.
func protectiveFailed(err error) string {
	if domain.ErrorCode(err) == domain.EUnknownOutcome {
		return "Protective order not confirmed"
	}
	return "Protective order not placed"
}
