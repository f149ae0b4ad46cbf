package sandbox

import (
	"context"
	"sync"
	"time"

	"kestrel/domain"
)

// Updates implements domain.Exchange. Every committed change reaches every
// receiver in order; a receiver that stops reading holds the exchange up,
// so receivers must keep reading until ctx ends.
func (s *Sandbox) Updates(ctx context.Context) <-chan domain.TradeUpdate {
	return s.updates.Subscribe(ctx)
}

// health is what the sandbox knows of its own state for the status screen.
type health struct {
	mu        sync.Mutex
	lastOK    time.Time
	lastErr   string
	lastErrAt time.Time
	lastQuote time.Time
	lastBeat  time.Time
}

func (h *health) ok(now time.Time) { h.mu.Lock(); h.lastOK = now; h.mu.Unlock() }
func (h *health) fail(now time.Time, err error) {
	h.mu.Lock()
	h.lastErr, h.lastErrAt = err.Error(), now
	h.mu.Unlock()
}
func (h *health) quote(now time.Time) { h.mu.Lock(); h.lastQuote = now; h.mu.Unlock() }
func (h *health) beat(now time.Time)  { h.mu.Lock(); h.lastBeat = now; h.mu.Unlock() }

// Health is the exchange's own account of itself: LastCommit is the last
// successful journal write, LastError the last failed one if after it.
type Health = domain.ExchangeHealth

// Health reports the journal's and the feed's state.
func (s *Sandbox) Health() Health {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	h := Health{LastCommit: s.health.lastOK, LastQuote: s.health.lastQuote}
	if s.health.lastErrAt.After(s.health.lastOK) {
		h.LastError, h.LastErrorAt = s.health.lastErr, s.health.lastErrAt
	}
	return h
}

// LastBeat is when the matching loop (Run) last went round; zero before it
// starts. It beats at least every beatEvery while the loop is alive, ticks
// or not, so an old beat means the loop is stuck or stopped.
func (s *Sandbox) LastBeat() time.Time {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	return s.health.lastBeat
}
