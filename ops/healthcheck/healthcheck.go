// Package healthcheck pings the database on the interval the settings ask
// for and raises a critical alert when it does not answer.
package healthcheck

import (
	"context"
	"time"

	"kestrel/domain"
	"kestrel/settings"
)

// Pinger is the database: Ping returns an error when it cannot be reached.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Alerter raises a deduplicated system alert (alert.Service).
type Alerter interface {
	Raise(ctx context.Context, key, severity, component, title, message string)
}

// Counter counts failed checks (a Prometheus counter).
type Counter interface{ Inc() }

// pingTimeout bounds one check, so a hung database reads as a failure.
const pingTimeout = 5 * time.Second

// Run checks the database every healthCheckInterval while enableHealthChecks
// is on, until ctx ends. The settings are read each round, so a change
// applies from the next one without a restart.
func Run(ctx context.Context, db Pinger, platform func() settings.Settings, alerts Alerter, failures Counter) {
	for {
		m := platform().System.Monitoring
		select {
		case <-ctx.Done():
			return
		case <-time.After(Interval(m)):
		}
		if platform().System.Monitoring.EnableHealthChecks {
			Check(ctx, db, alerts, failures)
		}
	}
}

// Interval is the wait between checks; under a second (unset or nonsense)
// falls back to a minute rather than hammering the database.
func Interval(m settings.Monitoring) time.Duration {
	wait := time.Duration(m.HealthCheckInterval) * time.Millisecond
	if wait < time.Second {
		return time.Minute
	}
	return wait
}

// Check pings the database once; a failure counts and raises the alert.
// It reports whether the database answered.
func Check(ctx context.Context, db Pinger, alerts Alerter, failures Counter) bool {
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	err := db.Ping(pctx)
	cancel()
	if err == nil || ctx.Err() != nil {
		return err == nil
	}
	failures.Inc()
	alerts.Raise(ctx, "database:unreachable", domain.SeverityCritical, "database", "Database unreachable", "Health check failed: "+err.Error())
	return false
}
