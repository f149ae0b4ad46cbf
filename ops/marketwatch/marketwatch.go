// Package marketwatch raises an alert when the market feed goes quiet.
package marketwatch

import (
	"context"
	"fmt"
	"time"

	"kestrel/domain"
)

// StaleAfter is how long without a tick before the feed counts as stale.
const StaleAfter = 30 * time.Second

// every is how often Run looks at the feed.
const every = 5 * time.Second

// Alerter raises a deduplicated system alert (alert.Service).
type Alerter interface {
	Raise(ctx context.Context, key, severity, component, title, message string)
}

// Run checks the feed every five seconds until ctx ends. age is the time
// since the last tick, negative before the first (replay.LastTickAge).
func Run(ctx context.Context, age func() time.Duration, alerts Alerter) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		Check(ctx, age(), alerts)
	}
}

// Check raises a high alert when the last tick is older than StaleAfter and
// reports whether it did. A feed that has not ticked yet is starting, not stale.
func Check(ctx context.Context, age time.Duration, alerts Alerter) bool {
	if age <= StaleAfter {
		return false
	}
	alerts.Raise(ctx, "market:stale", domain.SeverityHigh, "market_data", "Market data stale",
		fmt.Sprintf("No price update for %s", age.Round(time.Second)))
	return true
}
