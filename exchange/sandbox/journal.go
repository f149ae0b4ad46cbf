package sandbox

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/exchange/paper"
)

// Group commit. A command changes the engine in memory under mu and queues
// its change; one writer goroutine journals everything queued in one
// transaction (one fsync) and only then acknowledges each command and tells
// its updates, in order. Concurrent commands so share a commit instead of
// each holding the engine across its own, and nothing is acknowledged before
// it is durable. A failed commit fails its batch and everything queued after
// it (computed on top of it) and rebuilds the engine from the journal.

// maxBatch bounds one transaction; more waits for the next.
const maxBatch = 512

// commitTimeout bounds one journal write; the outcome is then unknown and
// the engine is rebuilt from the journal.
const commitTimeout = 30 * time.Second

// entry is one queued change and its outcome.
type entry struct {
	change  domain.LedgerChange
	updates []domain.TradeUpdate
	cids    []cidKey // client order ids this change introduces
	riders  []*domain.AuditRider
	done    chan struct{}
	err     error
}

type cidKey struct{ user, cid string }

// pendingOrder is a queued order with a client order id, not yet journaled.
type pendingOrder struct {
	order domain.Order
	entry *entry
}

// recentFor is how long a journaled client order id stays in memory: a
// lookup in the journal that started before the order was stored and
// reaches the engine after it still finds it here.
const recentFor = 10 * time.Second

// recentOrder is a client order id journaled lately.
type recentOrder struct {
	order domain.Order
	at    time.Time
}

// remember moves a journaled entry's client order ids from pending to
// recent and forgets the ones older than recentFor. Callers hold mu.
func (s *Sandbox) remember(e *entry, now time.Time) {
	for _, k := range e.cids {
		if p, ok := s.pending[k]; ok && p.entry == e {
			delete(s.pending, k)
			s.recent[k] = recentOrder{order: p.order, at: now}
			s.recentFIFO = append(s.recentFIFO, k)
		}
	}
	n := 0
	for _, k := range s.recentFIFO {
		r, ok := s.recent[k]
		if ok && now.Sub(r.at) < recentFor {
			break
		}
		delete(s.recent, k)
		n++
	}
	s.recentFIFO = s.recentFIFO[n:]
}

// enqueue queues changes as one entry (nil when nothing changed). Callers
// hold mu, so the queue's order is the engine's.
func (s *Sandbox) enqueue(changes ...paper.Change) *entry {
	return s.enqueueAudited(nil, domain.Order{}, changes...)
}

// enqueueAudited is enqueue that also journals rider's audit entry for the
// order o the command placed or changed (nil rider: none). Callers hold mu.
func (s *Sandbox) enqueueAudited(rider *domain.AuditRider, o domain.Order, changes ...paper.Change) *entry {
	e := &entry{done: make(chan struct{})}
	for _, c := range changes {
		e.change.Orders = append(e.change.Orders, c.Orders...)
		e.change.Fills = append(e.change.Fills, c.Fills...)
		e.change.Balances = append(e.change.Balances, c.Balances...)
		e.change.Positions = append(e.change.Positions, c.Positions...)
		e.updates = append(e.updates, c.Updates...)
	}
	if len(e.change.Orders) == 0 && len(e.change.Balances) == 0 && len(e.change.Positions) == 0 {
		return nil
	}
	if rider != nil {
		e.change.Audit = append(e.change.Audit, rider.Entry(o))
		e.riders = append(e.riders, rider)
	}
	for _, o := range e.change.Orders {
		if o.ClientOrderID != "" {
			k := cidKey{o.UserID, o.ClientOrderID}
			s.pending[k] = pendingOrder{order: o, entry: e}
			s.known[s.hashCID(k)] = struct{}{} // kept if the commit fails: a false "maybe" only costs a read
			e.cids = append(e.cids, k)
		}
	}
	s.qmu.Lock()
	s.queue = append(s.queue, e)
	if !s.writing {
		s.writing = true
		go s.writeLoop()
	}
	s.qmu.Unlock()
	return e
}

// wait blocks until e is journaled (nil e: nothing to wait for). A caller
// that gives up early gets its context's error: the outcome is then unknown
// to it, as with any lost reply, and a retry with the client order id finds
// the order if it was stored.
func (s *Sandbox) wait(ctx context.Context, e *entry) error {
	if e == nil {
		return nil
	}
	select {
	case <-e.done:
		return e.err
	case <-ctx.Done():
		return domain.Errorf(domain.EUnknownOutcome, "The order's outcome is unknown (%v); retry with the same client order id", ctx.Err())
	}
}

// writeLoop journals the queue batch by batch and ends when it is empty.
func (s *Sandbox) writeLoop() {
	for {
		s.qmu.Lock()
		batch := s.queue
		if len(batch) > maxBatch {
			batch, s.queue = batch[:maxBatch:maxBatch], batch[maxBatch:]
		} else {
			s.queue = nil
		}
		if len(batch) == 0 {
			s.writing = false
			s.qmu.Unlock()
			return
		}
		s.qmu.Unlock()

		change := merge(batch)
		change.Notify = s.notifyEvents(batch)
		ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
		err := journalError(s.store.ApplyLedger(ctx, change))
		cancel()
		now := s.opt.Clock.Now()
		s.mu.Lock()
		if err != nil {
			slog.Warn("sandbox journal commit failed; its batch is refused and the engine reloaded", "err", err, "commands", len(batch), "component", "exchange")
			s.health.fail(now, err)
			s.stale = true
			s.qmu.Lock()
			later := s.queue // computed on top of the failed batch
			s.queue = nil
			s.qmu.Unlock()
			batch = append(batch, later...)
			if rerr := s.restore(context.Background(), false); rerr != nil {
				slog.Error("sandbox ledger reload failed; will retry", "err", rerr, "component", "exchange")
			}
		} else {
			s.health.ok(now)
		}
		wall := time.Now()
		for _, e := range batch {
			if err == nil {
				s.remember(e, wall)
				continue
			}
			for _, k := range e.cids {
				if p, ok := s.pending[k]; ok && p.entry == e {
					delete(s.pending, k)
				}
			}
		}
		s.mu.Unlock()
		for _, e := range batch {
			e.err = err
			if err == nil {
				for _, r := range e.riders {
					r.MarkStored()
				}
				s.updates.Tell(e.updates)
			}
			close(e.done)
		}
	}
}

// notifyEvents are the notification events of a batch's updates, which
// it marks Journaled: they are committed with the batch. It runs on the
// writer, outside the engine's lock, so commands do not wait on it.
func (s *Sandbox) notifyEvents(batch []*entry) []domain.NotifyEvent {
	if s.opt.NotifyEvent == nil {
		return nil
	}
	var out []domain.NotifyEvent
	for _, e := range batch {
		for i := range e.updates {
			if n, ok := s.opt.NotifyEvent(e.updates[i]); ok {
				e.updates[i].Journaled = true
				out = append(out, n)
			}
		}
	}
	return out
}

// MsgNotStored is the answer to every command of a batch whose commit failed.
const MsgNotStored = "The change could not be stored (the database did not confirm it) and may not have taken effect; " +
	"retry it: an order with a client order id is placed at most once"

// journalError is what the commands of a failed batch are told. A refusal
// the store gave (e.g. a client order id already used, or the cluster fence
// saying another instance leads now, or a failure the store knows changed
// nothing) stays as it is; anything else means the
// commit was not confirmed, so the outcome is unknown: 504 (a 503 would say
// it did not run), retry. The store's error is kept as the cause, for the logs.
func journalError(err error) error {
	switch domain.ErrorCode(err) {
	case "", domain.EConflict, domain.EInvalid, domain.ERejected:
		return err
	}
	if domain.ErrorMessage(err) == domain.MsgNotLeader {
		return err // refused whole, so not stored: the retry goes to the new leader
	}
	if errors.Is(err, domain.ErrNothingStored) {
		return err // the store knows it rolled the batch back whole (a full disk): not run, 503
	}
	return &domain.Error{Code: domain.EUnknownOutcome, Message: MsgNotStored, Cause: err}
}

// merge makes one change of a batch: each order, balance and position
// once, in its last state; every fill.
func merge(batch []*entry) domain.LedgerChange {
	if len(batch) == 1 {
		return batch[0].change
	}
	var m domain.LedgerChange
	orders, bals, pos := map[string]int{}, map[string]int{}, map[string]int{}
	for _, e := range batch {
		for _, o := range e.change.Orders {
			if i, ok := orders[o.ID]; ok {
				m.Orders[i] = o
				continue
			}
			orders[o.ID] = len(m.Orders)
			m.Orders = append(m.Orders, o)
		}
		m.Fills = append(m.Fills, e.change.Fills...)
		m.Audit = append(m.Audit, e.change.Audit...)
		for _, b := range e.change.Balances {
			if i, ok := bals[b.Currency]; ok {
				m.Balances[i] = b
				continue
			}
			bals[b.Currency] = len(m.Balances)
			m.Balances = append(m.Balances, b)
		}
		for _, p := range e.change.Positions {
			if i, ok := pos[p.Symbol]; ok {
				m.Positions[i] = p
				continue
			}
			pos[p.Symbol] = len(m.Positions)
			m.Positions = append(m.Positions, p)
		}
	}
	return m
}
