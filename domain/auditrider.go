package domain

import (
	"context"
	"sync"
	"sync/atomic"
)

// AuditRider carries the audit entry of a request that places, modifies or
// cancels an order to the exchange's journal, so the entry is stored in the
// same transaction as that change: an acknowledged order is never without its audit row, and the
// request waits for one commit instead of the order's and then its audit
// entry's. The API layer puts one in the request's context; the exchange
// takes it when the order is accepted into the book and marks it stored once
// journaled. When no exchange takes it (refusals, repeats, other venues) or
// the commit fails, the API layer writes the entry as for any request.
type AuditRider struct {
	target string // the order the request changes; "" for a placement
	build  func(Order) AuditEntry
	taken  atomic.Bool
	stored atomic.Bool
}

// NewAuditRider returns a rider for a request that changes order target
// ("" for a new order); build makes its entry from the order as changed.
func NewAuditRider(target string, build func(Order) AuditEntry) *AuditRider {
	return &AuditRider{target: target, build: build}
}

type auditRiderKey struct{}

// WithAuditRider returns ctx carrying r.
func WithAuditRider(ctx context.Context, r *AuditRider) context.Context {
	return context.WithValue(ctx, auditRiderKey{}, r)
}

// TakeAuditRider returns ctx's rider to the first command on its target
// only (target "" for a new order), or nil: a request that cancels other
// orders on the way (room for a SELL) does not hand its entry to those.
func TakeAuditRider(ctx context.Context, target string) *AuditRider {
	r, _ := ctx.Value(auditRiderKey{}).(*AuditRider)
	if r == nil || r.target != target || !r.taken.CompareAndSwap(false, true) {
		return nil
	}
	return r
}

// Entry is the audit entry for the order o as the command left it.
func (r *AuditRider) Entry(o Order) AuditEntry { return r.build(o) }

// MarkStored records that the entry was committed with its order.
func (r *AuditRider) MarkStored() { r.stored.Store(true) }

// Stored reports whether the entry was committed with its order.
func (r *AuditRider) Stored() bool { return r != nil && r.stored.Load() }

// AuditEvents gathers the notification events a request's work makes that
// belong with its audit entry (AuditEntry.Notify): the API layer puts one in
// each state-changing request's context and stores what it gathered with
// the request's entry.
type AuditEvents struct {
	mu  sync.Mutex
	evs []NotifyEvent
}

type auditEventsKey struct{}

// WithAuditEvents returns ctx carrying a.
func WithAuditEvents(ctx context.Context, a *AuditEvents) context.Context {
	return context.WithValue(ctx, auditEventsKey{}, a)
}

// AddAuditEvent puts e with the audit entry of ctx's request; false when ctx
// is no such request (a caller then stores e some other way).
func AddAuditEvent(ctx context.Context, e NotifyEvent) bool {
	a, _ := ctx.Value(auditEventsKey{}).(*AuditEvents)
	if a == nil {
		return false
	}
	a.mu.Lock()
	a.evs = append(a.evs, e)
	a.mu.Unlock()
	return true
}

// Events are the events gathered so far (nil for a nil a).
func (a *AuditEvents) Events() []NotifyEvent {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]NotifyEvent(nil), a.evs...)
}
