package auth

import (
	"context"
	"errors"
	"math"
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
type failureLimiter struct {
	mu     sync.Mutex
	cond   *sync.Cond
	max    int
	window time.Duration
	hits   map[string]*window
}

type window struct {
	start    time.Time
	failed   int // attempts that failed in this window
	inFlight int // reserved attempts whose outcome is not known yet
	refused  int // attempts refused in this window
}

func newFailureLimiter(max int, w time.Duration) *failureLimiter {
	l := &failureLimiter{max: max, window: w, hits: map[string]*window{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// at is key's window at now, a new one when it has run out.
func (l *failureLimiter) at(key string, now time.Time) *window {
	w, found := l.hits[key]
	if !found {
		if len(l.hits) > 100_000 { // bound memory under a spray of keys
			l.pruneLocked(now)
		}
		w = &window{start: now}
		l.hits[key] = w
	} else if now.Sub(w.start) >= l.window {
		w.start, w.failed, w.refused = now, 0, 0
	}
	return w
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
	if w, ok := l.hits[key]; ok {
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
	if w, ok := l.hits[key]; ok {
		w.failed, w.refused = 0, 0
	}
	l.cond.Broadcast()
}

func (l *failureLimiter) pruneLocked(now time.Time) {
	for k, w := range l.hits {
		if now.Sub(w.start) >= l.window && w.inFlight == 0 {
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
