package sandbox

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
)

// MsgInsufficient is the spec's refusal for a trade the account cannot cover.
const MsgInsufficient = paper.MsgInsufficient

// newID names orders and fills with time-ordered UUIDs (version 7): a new
// row's key lands at the end of the primary-key index instead of on a
// random page, so a group commit writes a few pages, not one per order.
func newID(string) string { return uuid.Must(uuid.NewV7()).String() }

// PlaceOrder implements domain.Exchange.
func (s *Sandbox) PlaceOrder(ctx context.Context, req domain.OrderRequest) (domain.Order, error) {
	return s.SubmitOrder(ctx, req)()
}

// SubmitOrder places req in the engine now and returns a wait that reports
// the outcome once it is journaled (domain.OrderPipeline): the caller can let
// others use the engine while the journal commits.
func (s *Sandbox) SubmitOrder(ctx context.Context, req domain.OrderRequest) func() (domain.Order, error) {
	req.Symbol = strings.ToUpper(strings.TrimSpace(req.Symbol))
	// A client order id is looked up in the journal before taking the
	// engine, so no command waits on that read; what was journaled since the
	// read started is in pending or recent (see place).
	var stored *domain.Order
	if req.ClientOrderID != "" && s.mayKnowLocked(cidKey{req.UserID, req.ClientOrderID}) {
		prev, err := s.store.LedgerOrderByClientID(ctx, req.UserID, req.ClientOrderID)
		switch {
		case err == nil:
			stored = &prev
		case domain.ErrorCode(err) != domain.ENotFound:
			return func() (domain.Order, error) { return domain.Order{}, err }
		}
	}
	s.mu.Lock()
	o, e, err := s.place(ctx, req, stored)
	s.mu.Unlock()
	return func() (domain.Order, error) {
		if werr := s.wait(ctx, e); werr != nil {
			return domain.Order{}, werr
		}
		return o, err
	}
}

// place runs a new order; stored is the journal's order with the same
// client order id, if the read before the lock found one. Callers hold mu.
func (s *Sandbox) place(ctx context.Context, req domain.OrderRequest, stored *domain.Order) (domain.Order, *entry, error) {
	if err := s.ready(ctx); err != nil {
		return domain.Order{}, nil, err
	}
	if req.ClientOrderID != "" {
		k := cidKey{req.UserID, req.ClientOrderID}
		if p, ok := s.pending[k]; ok {
			return p.order, p.entry, nil // acknowledged once it is journaled
		}
		if r, ok := s.recent[k]; ok {
			return r.order, nil, nil
		}
		if stored != nil {
			return *stored, nil, nil
		}
	}
	now := s.opt.Clock.Now()
	caught := s.catchUp(now, req.Symbol)
	o, c, err := s.eng.Place(now, req)
	if err != nil {
		return domain.Order{}, s.enqueue(caught), err // the market moved: keep what it matched
	}
	return o, s.enqueueAudited(domain.TakeAuditRider(ctx, ""), o, caught, c), nil
}

// CancelOrder implements domain.Exchange.
func (s *Sandbox) CancelOrder(ctx context.Context, id string) (domain.Order, error) {
	return s.change(ctx, id, "Order cannot be cancelled in status %s", func(now time.Time) (domain.Order, paper.Change, error) {
		return s.eng.Cancel(now, id, "")
	})()
}

// ModifyOrder implements domain.Exchange: a new quantity and/or price for a
// live limit or stop order (the stop price for stops). The order loses its
// time priority; a limit made marketable fills at once as a taker.
func (s *Sandbox) ModifyOrder(ctx context.Context, id string, quantity, price *decimal.Decimal) (domain.Order, error) {
	return s.SubmitModify(ctx, id, quantity, price)()
}

// SubmitModify is ModifyOrder with the wait for the journal returned
// (domain.OrderPipeline).
func (s *Sandbox) SubmitModify(ctx context.Context, id string, quantity, price *decimal.Decimal) func() (domain.Order, error) {
	if quantity == nil && price == nil {
		return func() (domain.Order, error) {
			return domain.Order{}, domain.Errorf(domain.EInvalid, "Please provide at least one field to modify")
		}
	}
	return s.change(ctx, id, "Only pending or open limit and stop orders can be modified (this one is %s)", func(now time.Time) (domain.Order, paper.Change, error) {
		return s.eng.Modify(now, id, quantity, price)
	})
}

// change runs a command on a live order; notLive words the conflict for an
// order that exists but is no longer live. It returns the wait for the journal.
func (s *Sandbox) change(ctx context.Context, id, notLive string, cmd func(time.Time) (domain.Order, paper.Change, error)) func() (domain.Order, error) {
	s.mu.Lock()
	o, e, err := func() (domain.Order, *entry, error) {
		if err := s.ready(ctx); err != nil {
			return domain.Order{}, nil, err
		}
		cur, live := s.eng.LiveOrder(id)
		if !live {
			stored, err := s.store.LedgerOrder(ctx, id)
			if err != nil {
				return domain.Order{}, nil, err
			}
			return domain.Order{}, nil, domain.Errorf(domain.EConflict, notLive, stored.Status)
		}
		now := s.opt.Clock.Now()
		caught := s.catchUp(now, cur.Symbol)
		if _, still := s.eng.LiveOrder(id); !still { // the market filled it just now
			status := domain.StatusFilled
			for _, u := range caught.Orders {
				if u.ID == id {
					status = u.Status
				}
			}
			return domain.Order{}, s.enqueue(caught), domain.Errorf(domain.EConflict, notLive, status)
		}
		o, c, err := cmd(now)
		if err != nil {
			return domain.Order{}, s.enqueue(caught), err
		}
		return o, s.enqueueAudited(domain.TakeAuditRider(ctx, id), o, caught, c), nil
	}()
	s.mu.Unlock()
	return func() (domain.Order, error) {
		if werr := s.wait(ctx, e); werr != nil {
			return domain.Order{}, werr
		}
		return o, err
	}
}

// catchUp shows the engine the market since it last looked at symbol: the
// current book and the range the price covered in between. Callers hold mu.
func (s *Sandbox) catchUp(now time.Time, symbol string) paper.Change {
	t, err := s.prices.Ticker(symbol)
	if err != nil {
		return paper.Change{}
	}
	depth, deep := s.prices.(Depther)
	if from, seen := s.seenAt[symbol]; seen && !deep && !t.Time.IsZero() && !t.Time.After(from) {
		if _, quoted := s.eng.Quote(symbol); quoted {
			return paper.Change{} // nothing new since the engine last looked
		}
	}
	q := paper.Quote{Symbol: symbol, Last: t.Price, Bid: t.Bid, Ask: t.Ask}
	if !q.Bid.IsPositive() || !q.Ask.IsPositive() {
		q.Bid, q.Ask = t.Price, t.Price
	}
	if deep { // the book changes between ticks: always read it afresh
		if bids, asks, ok := depth.Depth(symbol); ok && len(bids) > 0 && len(asks) > 0 {
			q.Bids, q.Asks, q.Bid, q.Ask = bids, asks, bids[0].Price, asks[0].Price
		}
	}
	if r, ok := s.prices.(Ranger); ok && !t.Time.IsZero() {
		if from, seen := s.seenAt[symbol]; seen && t.Time.After(from) {
			if lo, hi, ok := r.Range(symbol, from, t.Time); ok {
				q.Low, q.High, q.Traded = lo, hi, true
			}
		}
	}
	if tr, ok := s.prices.(TradeReporter); ok && tr.TradeThrough() {
		q.TradeThrough = true
	} else {
		q.Traded = false
	}
	if !t.Time.IsZero() {
		s.seenAt[symbol] = t.Time
	}
	s.health.quote(now)
	return s.eng.OnQuote(now, q)
}

// OnTick matches the symbol's resting orders against the market now (and
// the range it covered since the last tick matched); all of it is stored in
// one transaction. On a store error nothing is lost: the engine is rebuilt
// from the journal and the next tick matches the orders again.
func (s *Sandbox) OnTick(ctx context.Context, t domain.Tick) error {
	s.mu.Lock()
	if err := s.ready(ctx); err != nil {
		s.mu.Unlock()
		return err
	}
	from, seen := s.seenAt[t.Symbol]
	e := s.enqueue(s.catchUp(s.opt.Clock.Now(), t.Symbol))
	s.mu.Unlock()
	err := s.wait(ctx, e)
	if err != nil { // match the same range again next time
		s.mu.Lock()
		if seen {
			s.seenAt[t.Symbol] = from
		} else {
			delete(s.seenAt, t.Symbol)
		}
		s.mu.Unlock()
	}
	return err
}

// Run matches every tick from the feed until ctx ends; errors go to onErr.
// A dropped tick loses nothing: the next one covers the range since.
func (s *Sandbox) Run(ctx context.Context, ticks <-chan domain.Tick, onErr func(error)) {
	beat := time.NewTicker(beatEvery)
	defer beat.Stop()
	for {
		s.health.beat(s.opt.Clock.Now())
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
		case t, ok := <-ticks:
			if !ok {
				return
			}
			if err := s.OnTick(ctx, t); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}

// beatEvery is how often an idle matching loop still records a heartbeat.
const beatEvery = time.Second
