package httpapi

import (
	"time"

	"kestrel/domain"
	"kestrel/ops/marketwatch"
)

// How old a signal may get before the status says so. The feed's limits
// come from the configured market watch (one threshold for the alert, the
// automation pause and the status); the engine beats every second, so its
// limit leaves room for a slow machine.
const (
	feedDeadFactor = 4                // exchange without a price for this many thresholds: unhealthy (2 min at the default 30 s)
	beatStaleAfter = 10 * time.Second // engine loop without a heartbeat: stale
)

// sinceOr is how long ago t was; before any t, how long since the server
// started, so a fresh server is not reported late.
func sinceOr(t, started, now time.Time) time.Duration {
	if t.IsZero() {
		return now.Sub(started)
	}
	return now.Sub(t)
}

// ageSeconds is the age of t in seconds, -1 when it never happened.
func ageSeconds(t, now time.Time) float64 {
	if t.IsZero() {
		return -1
	}
	return now.Sub(t).Seconds()
}

// exchangeHealth grades the exchange from its own account: unhealthy when it
// has seen no price for feedDeadFactor thresholds (it cannot match),
// degraded when its last write failed or its feed is stale.
func exchangeHealth(h domain.ExchangeHealth, watch marketwatch.Watcher, started, now time.Time) string {
	feed := sinceOr(h.LastQuote, started, now)
	switch {
	case feed > feedDeadFactor*watch.Threshold():
		return "unhealthy"
	case h.LastError != "" || watch.Late(feed):
		return "degraded"
	}
	return "healthy"
}

// exchangeEntry is the exchange's status entry (and its grade).
func exchangeEntry(h domain.ExchangeHealth, watch marketwatch.Watcher, started, now time.Time) (map[string]any, string) {
	st := exchangeHealth(h, watch, started, now)
	e := map[string]any{"status": st, "last_success": nullTime(h.LastCommit), "last_quote_at": nullTime(h.LastQuote),
		"feed_age_seconds": ageSeconds(h.LastQuote, now), "last_error": nil, "last_error_at": nil}
	if h.LastError != "" {
		e["last_error"], e["last_error_at"] = h.LastError, nullTime(h.LastErrorAt)
	}
	return e, st
}

// engineStatus is stale when the engine loop stopped beating (stuck or
// stopped, whatever the halt flag says), else halted or running.
func engineStatus(halted, stale bool) string {
	switch {
	case stale:
		return "stale"
	case halted:
		return "halted"
	}
	return "running"
}
