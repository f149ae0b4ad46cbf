package auth

import (
	"errors"
	"math"
	"sync"
	"time"

	"kestrel/domain"
)

// failureLimiter counts attempts per key in a fixed window. An attempt is
// reserved before the password is checked (reserve), so a burst of
// concurrent attempts cannot all pass a check made before any of them
// failed: at most max are let through per window.
type failureLimiter struct {
	mu     sync.Mutex
	max    int
	window time.Duration
	hits   map[string]*window
}

type window struct {
	start   time.Time
	count   int
	refused int // attempts refused in this window
}

func newFailureLimiter(max int, w time.Duration) *failureLimiter {
	return &failureLimiter{max: max, window: w, hits: map[string]*window{}}
}

// reserve takes one attempt for key. When key has used up its attempts it
// is refused for wait; first reports the window's first refusal (the one
// worth an audit entry: the rest of a flood is not written one by one).
func (l *failureLimiter) reserve(key string, now time.Time) (ok bool, wait time.Duration, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, found := l.hits[key]
	if !found || now.Sub(w.start) >= l.window {
		if len(l.hits) > 100_000 { // bound memory under a spray of keys
			l.pruneLocked(now)
		}
		l.hits[key] = &window{start: now, count: 1}
		return true, 0, false
	}
	if w.count >= l.max {
		w.refused++
		return false, w.start.Add(l.window).Sub(now), w.refused == 1
	}
	w.count++
	return true, 0, false
}

// release gives back an attempt reserved for key that did not fail.
func (l *failureLimiter) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.hits[key]; ok && w.count > 0 {
		w.count--
	}
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

// repeatRefusal is a rate-limit refusal after the first of its window.
type repeatRefusal struct{ err *domain.Error }

func (r repeatRefusal) Error() string { return r.err.Error() }
func (r repeatRefusal) Unwrap() error { return r.err }

// IsRepeatRefusal reports a rate-limit refusal that is not the first of its
// window: the audit log records the first and leaves the rest of a flood
// out, so failed attempts cannot grow it without bound.
func IsRepeatRefusal(err error) bool {
	var r repeatRefusal
	return errors.As(err, &r)
}

// tooMany is the refusal of an attempt for wait.
func tooMany(msg string, wait time.Duration, first bool) error {
	err := domain.Errorf(domain.ETooMany, "%s; try again in %d minute(s)", msg, int(math.Ceil(wait.Minutes())))
	if first {
		return err
	}
	return repeatRefusal{err}
}
