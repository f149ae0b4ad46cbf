package ws

import (
	"time"
)

// Limits bound what one user can hold of the hub: connections (each costs a
// goroutine pair and a send buffer) and the rate of client messages (each
// is parsed and answered).
type Limits struct {
	// PerUser is how many connections one user may hold at once; more are
	// refused with 429 before the upgrade.
	PerUser int
	// MessageBurst client messages may arrive at once, then
	// MessagesPerSecond; a client sending faster is disconnected.
	MessageBurst      int
	MessagesPerSecond float64
}

// DefaultLimits suit the web app: a few tabs per user, and a handful of
// subscription changes now and then.
var DefaultLimits = Limits{PerUser: 10, MessageBurst: 30, MessagesPerSecond: 5}

// SetLimits changes the limits for connections opened from now on.
func (h *Hub) SetLimits(l Limits) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.limits = l
}

func (h *Hub) currentLimits() Limits {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.limits
}

// reserve takes one of userID's connection places, or reports none is left.
func (h *Hub) reserve(userID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limits.PerUser > 0 && h.perUser[userID] >= h.limits.PerUser {
		return false
	}
	h.perUser[userID]++
	return true
}

// release gives back a place reserve took.
func (h *Hub) release(userID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perUser[userID]--; h.perUser[userID] <= 0 {
		delete(h.perUser, userID)
	}
}

// bucket is a token bucket: burst tokens, refilled at rate per second.
type bucket struct {
	tokens, burst, rate float64
	last                time.Time
}

func newBucket(burst int, rate float64, now time.Time) *bucket {
	return &bucket{tokens: float64(burst), burst: float64(burst), rate: rate, last: now}
}

// take spends one token if there is one. A zero burst means no limit.
func (b *bucket) take(now time.Time) bool {
	if b.burst <= 0 {
		return true
	}
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
