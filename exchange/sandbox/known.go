package sandbox

import (
	"context"
	"hash/maphash"
)

// The client order ids the engine knows. A retry must find its first order,
// but nearly every order carries a new id, and looking each one up in the
// journal was the largest cost of an order after the commit itself. The
// engine is the journal's only writer, so the ids it loaded on start plus
// the ones it queued since are all there are: an id outside that set is new.
// The set holds 64-bit hashes (about 20 bytes an order); a collision only
// sends an order to the journal read it would have made anyway.

// loadKnown reads every client order id from the journal. Callers hold mu
// (or own the sandbox before it is shared).
func (s *Sandbox) loadKnown(ctx context.Context) error {
	known := map[uint64]struct{}{}
	err := s.store.LedgerClientOrderIDs(ctx, func(user, cid string) {
		known[s.hashCID(cidKey{user, cid})] = struct{}{}
	})
	if err != nil {
		s.knownComplete = false
		return err
	}
	s.known, s.knownComplete = known, true
	return nil
}

func (s *Sandbox) hashCID(k cidKey) uint64 { return maphash.Comparable(s.knownSeed, k) }

// mayKnow reports whether the journal may hold an order with this client
// order id. Callers hold mu.
func (s *Sandbox) mayKnow(k cidKey) bool {
	if !s.knownComplete {
		return true
	}
	_, ok := s.known[s.hashCID(k)]
	return ok
}

func (s *Sandbox) mayKnowLocked(k cidKey) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mayKnow(k)
}
