package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"math"
	"net/netip"
	"sync"
	"time"

	"kestrel/domain"
)

// failureLimiter counts failed attempts per key in a fixed window. A
// password check first reserves its attempt (reserve), so a burst of
// concurrent attempts cannot all pass a check made before any of them
// failed: at most max checks run per window until one succeeds. While the
// budget is taken by checks still running, further attempts wait for them
// rather than being refused, so a burst of correct sign-ins all succeed.
//
// Memory is bounded whatever the callers send: a key is kept as its
// SHA-256 (32 bytes, however long the email or address it came from), and
// the limiter holds at most maxKeys windows; a new key past that evicts the
// oldest window (the one started longest ago), so a spray of keys costs a
// fixed amount of memory and forgets the stalest counts first.
type failureLimiter struct {
	mu      sync.Mutex
	cond    *sync.Cond
	max     int
	window  time.Duration
	maxKeys int
	hits    map[limitKey]*window
	// oldest and newest end the list of windows in the order they
	// (re)started: eviction takes from oldest.
	oldest, newest *window
}

// limitKey is a limiter key as kept: the SHA-256 of the caller's key.
type limitKey [sha256.Size]byte

type window struct {
	key        limitKey
	start      time.Time
	failed     int // attempts that failed in this window
	inFlight   int // reserved attempts whose outcome is not known yet
	refused    int // attempts refused in this window
	prev, next *window
}

// defaultMaxKeys bounds each limiter's windows: about 165 bytes each
// (key, window, map entry, measured), so at most about 3.3 MB per limiter
// and 20 MB for the six a Service has.
const defaultMaxKeys = 20_000

func newFailureLimiter(max int, w time.Duration) *failureLimiter {
	return newBoundedLimiter(max, w, defaultMaxKeys)
}

func newBoundedLimiter(max int, w time.Duration, maxKeys int) *failureLimiter {
	l := &failureLimiter{max: max, window: w, maxKeys: maxKeys, hits: map[limitKey]*window{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func hashKey(key string) limitKey { return sha256.Sum256([]byte(key)) }

// size is how many windows l holds.
func (l *failureLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hits)
}

// at is key's window at now, a new one when it has run out.
func (l *failureLimiter) at(key string, now time.Time) *window {
	k := hashKey(key)
	w, found := l.hits[k]
	switch {
	case !found:
		for len(l.hits) >= l.maxKeys {
			l.evictLocked()
		}
		w = &window{key: k, start: now}
		l.hits[k] = w
		l.pushLocked(w)
	case now.Sub(w.start) >= l.window:
		w.start, w.failed, w.refused = now, 0, 0
		l.unlinkLocked(w)
		l.pushLocked(w)
	}
	return w
}

// evictLocked drops the oldest window, preferring one with no attempt in
// flight among the oldest few (an attempt in flight whose window is gone
// settles into nothing).
func (l *failureLimiter) evictLocked() {
	victim := l.oldest
	for w, n := l.oldest, 0; w != nil && n < 64; w, n = w.next, n+1 {
		if w.inFlight == 0 {
			victim = w
			break
		}
	}
	l.unlinkLocked(victim)
	delete(l.hits, victim.key)
}

func (l *failureLimiter) pushLocked(w *window) {
	w.prev, w.next = l.newest, nil
	if l.newest != nil {
		l.newest.next = w
	} else {
		l.oldest = w
	}
	l.newest = w
}

func (l *failureLimiter) unlinkLocked(w *window) {
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		l.oldest = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	} else {
		l.newest = w.prev
	}
	w.prev, w.next = nil, nil
}

// reserve takes one attempt for key, waiting while checks in flight hold
// the rest of its budget. When key has used up its attempts it is refused
// for wait; first reports the window's first refusal (the one worth an
// audit entry: the rest of a flood is not written one by one). err is set
// when ctx ended while waiting.
func (l *failureLimiter) reserve(ctx context.Context, key string, now time.Time) (ok bool, wait time.Duration, first bool, err error) {
	stop := context.AfterFunc(ctx, func() { l.mu.Lock(); l.cond.Broadcast(); l.mu.Unlock() })
	defer stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		w := l.at(key, now)
		switch {
		case w.failed >= l.max:
			w.refused++
			return false, w.start.Add(l.window).Sub(now), w.refused == 1, nil
		case w.failed+w.inFlight < l.max:
			w.inFlight++
			return true, 0, false, nil
		case ctx.Err() != nil:
			return false, 0, false, domain.Errorf(domain.EUnavailable, "Too many sign-in attempts at once; try again")
		}
		l.cond.Wait()
	}
}

// settle ends a reserved attempt: failed counts it against key.
func (l *failureLimiter) settle(key string, failed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.hits[hashKey(key)]; ok {
		w.inFlight = max(0, w.inFlight-1)
		if failed {
			w.failed++
		}
	}
	l.cond.Broadcast()
}

// count records one attempt for key that is counted whatever its outcome
// (registrations), refusing it when key has used up its attempts.
func (l *failureLimiter) count(key string, now time.Time) (ok bool, wait time.Duration, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.at(key, now)
	if w.failed+w.inFlight >= l.max {
		w.refused++
		return false, w.start.Add(l.window).Sub(now), w.refused == 1
	}
	w.failed++
	return true, 0, false
}

// reset forgets key's failures (after a successful login).
func (l *failureLimiter) reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.hits[hashKey(key)]; ok {
		w.failed, w.refused = 0, 0
	}
	l.cond.Broadcast()
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

// refusal is err (a wait cut short) or the refusal of an attempt for wait.
func refusal(err error, msg string, wait time.Duration, first bool) error {
	if err != nil {
		return err
	}
	return tooMany(msg, wait, first)
}

// tooMany is the refusal of an attempt for wait.
func tooMany(msg string, wait time.Duration, first bool) error {
	err := domain.Errorf(domain.ETooMany, "%s; try again in %d minute(s)", msg, int(math.Ceil(wait.Minutes())))
	if first {
		return err
	}
	return repeatRefusal{err}
}

// blocked reports whether key has used up its attempts at now, and for how
// long, without taking an attempt (a second factor checked after the
// password's reservation has been settled).
func (l *failureLimiter) blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.at(key, now)
	if w.failed >= l.max {
		return true, w.start.Add(l.window).Sub(now)
	}
	return false, 0
}

// fail counts one failed attempt against key (a wrong second factor).
func (l *failureLimiter) fail(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.at(key, now).failed++
	l.cond.Broadcast()
}

// limitAddr is the rate-limit key of a client address. An IPv6 address
// stands for its /64: one subscriber's network, whose addresses a client
// can switch between at will. IPv4 (IPv4-mapped IPv6 included) and
// anything that is not an address are used as they are.
func limitAddr(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}
