package domain

import (
	"context"
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
