// Package marketwatch raises an alert when the market feed goes quiet.
package marketwatch

import (
	"context"
	"fmt"
	"time"

	"kestrel/domain"
)

// StaleAfter is how long without a tick before the feed counts as stale,
// unless a Watcher says otherwise.
const StaleAfter = 30 * time.Second

// maxEvery is how often Run looks at the feed at most.
const maxEvery = 5 * time.Second

// Alerter raises a deduplicated system alert (alert.Service).
type Alerter interface {
	Raise(ctx context.Context, key, severity, component, title, message string)
}

// Resolver closes the stale alert once prices return (alert.Service); an
// Alerter without it leaves the alert for an operator.
type Resolver interface {
	ResolveKey(ctx context.Context, key, by string) bool
}

// Watcher judges a feed's age against one staleness threshold: the alert
// and the automation pause use the same one.
type Watcher struct {
	// After is how long without a tick makes the feed stale (StaleAfter when zero).
	After time.Duration
}

// Threshold is the age past which the feed is stale: After, or StaleAfter
// when After is zero.
func (w Watcher) Threshold() time.Duration {
	if w.After <= 0 {
		return StaleAfter
	}
	return w.After
}

// Late reports whether a feed whose last tick is age old is stale (never
// before the first tick: age is then negative).
func (w Watcher) Late(age time.Duration) bool { return age > w.Threshold() }

// every is how often Run looks: four times per threshold, at most every
// five seconds, so the alert comes at most a quarter late.
func (w Watcher) every() time.Duration { return min(maxEvery, w.Threshold()/4) }

// Run checks the feed until ctx ends. age is the time since the last tick,
// negative before the first (replay.LastTickAge).
func (w Watcher) Run(ctx context.Context, age func() time.Duration, alerts Alerter) {
	t := time.NewTicker(w.every())
	defer t.Stop()
	stale := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		stale = w.Watch(ctx, stale, age(), alerts)
	}
}

// Watch is one look at the feed given whether it was stale at the last:
// it raises the alert while the feed is stale and resolves it when fresh
// prices return. It reports whether the feed is stale now.
func (w Watcher) Watch(ctx context.Context, wasStale bool, age time.Duration, alerts Alerter) bool {
	if w.Check(ctx, age, alerts) {
		return true
	}
	if wasStale && age >= 0 {
		if r, ok := alerts.(Resolver); ok {
			r.ResolveKey(ctx, "market:stale", "system")
		}
	}
	return false
}

// Stale says why automation must wait for the market ("" while the last
// tick is at most the threshold old, or before the first).
func (w Watcher) Stale(age time.Duration) string {
	if !w.Late(age) {
		return ""
	}
	return fmt.Sprintf("Automation paused: no market data for %s", age.Round(time.Second))
}

// Check raises a high alert when the last tick is older than the threshold
// and reports whether it did. A feed that has not ticked yet is starting,
// not stale.
func (w Watcher) Check(ctx context.Context, age time.Duration, alerts Alerter) bool {
	if !w.Late(age) {
		return false
	}
	alerts.Raise(ctx, "market:stale", domain.SeverityHigh, "market_data", "Market data stale",
		fmt.Sprintf("No price update for %s", age.Round(time.Second)))
	return true
}
