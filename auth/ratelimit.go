package auth

import (
	"sync"
	"time"
)

// failureLimiter counts failed logins per key in a fixed window.
type failureLimiter struct {
	mu     sync.Mutex
	max    int
	window time.Duration
	hits   map[string]*window
}

type window struct {
	start time.Time
	count int
}

func newFailureLimiter(max int, w time.Duration) *failureLimiter {
	return &failureLimiter{max: max, window: w, hits: map[string]*window{}}
}

// blocked reports whether key has used up its failures, and for how long.
func (l *failureLimiter) blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.hits[key]
	if !ok || now.Sub(w.start) >= l.window {
		return false, 0
	}
	if w.count >= l.max {
		return true, w.start.Add(l.window).Sub(now)
	}
	return false, 0
}

// fail records one failure for key.
func (l *failureLimiter) fail(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.hits[key]
	if !ok || now.Sub(w.start) >= l.window {
		if len(l.hits) > 100_000 { // bound memory under a spray of keys
			l.pruneLocked(now)
		}
		l.hits[key] = &window{start: now, count: 1}
		return
	}
	w.count++
}

// reset forgets key's failures (after a successful login).
func (l *failureLimiter) reset(key string) {
	l.mu.Lock()
	delete(l.hits, key)
	l.mu.Unlock()
}

func (l *failureLimiter) pruneLocked(now time.Time) {
	for k, w := range l.hits {
		if now.Sub(w.start) >= l.window {
			delete(l.hits, k)
		}
	}
}
