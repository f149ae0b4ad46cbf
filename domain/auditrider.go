package domain

import (
	"context"
	"sync/atomic"
)

// AuditRider carries the audit entry of a request that places an order to
// the exchange's journal, so the entry is stored in the same transaction as
// the order: an acknowledged order is never without its audit row, and the
// request waits for one commit instead of the order's and then its audit
// entry's. The API layer puts one in the request's context; the exchange
// takes it when the order is accepted into the book and marks it stored once
// journaled. When no exchange takes it (refusals, repeats, other venues) or
// the commit fails, the API layer writes the entry as for any request.
type AuditRider struct {
	build  func(Order) AuditEntry
	taken  atomic.Bool
	stored atomic.Bool
}

// NewAuditRider returns a rider whose entry build makes from the placed order.
func NewAuditRider(build func(Order) AuditEntry) *AuditRider {
	return &AuditRider{build: build}
}

type auditRiderKey struct{}

// WithAuditRider returns ctx carrying r.
func WithAuditRider(ctx context.Context, r *AuditRider) context.Context {
	return context.WithValue(ctx, auditRiderKey{}, r)
}

// TakeAuditRider returns ctx's rider to the first caller only (one order per
// request carries it), or nil.
func TakeAuditRider(ctx context.Context) *AuditRider {
	r, _ := ctx.Value(auditRiderKey{}).(*AuditRider)
	if r == nil || !r.taken.CompareAndSwap(false, true) {
		return nil
	}
	return r
}

// Entry is the audit entry for the placed order o.
func (r *AuditRider) Entry(o Order) AuditEntry { return r.build(o) }

// MarkStored records that the entry was committed with its order.
func (r *AuditRider) MarkStored() { r.stored.Store(true) }

// Stored reports whether the entry was committed with its order.
func (r *AuditRider) Stored() bool { return r != nil && r.stored.Load() }
