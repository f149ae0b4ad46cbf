// Package retention deletes rows older than the retention the settings
// keep: log records and resolved alerts, and portfolio-value points.
package retention

import (
	"context"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/settings"
)

// Store deletes old rows; each returns how many it removed.
type Store interface {
	PruneLogs(ctx context.Context, before time.Time) (int64, error)
	PruneAlerts(ctx context.Context, before time.Time) (int64, error)
	PrunePortfolioPoints(ctx context.Context, before time.Time) (int64, error)
}

// Every is how often Run prunes; retention is counted in days.
const Every = time.Hour

const day = 24 * time.Hour

// Run prunes now and then every hour until ctx ends, reading the retention
// from the settings each round so a change applies from the next one.
func Run(ctx context.Context, store Store, platform func() settings.Settings, clock domain.Clock) {
	for {
		Prune(ctx, store, platform().System, clock.Now())
		select {
		case <-ctx.Done():
			return
		case <-time.After(Every):
		}
	}
}

// Prune deletes log records and resolved alerts older than logRetention
// days and portfolio points older than metricsRetention days; zero keeps
// everything. Failures are logged: the next round tries again.
func Prune(ctx context.Context, store Store, sys settings.System, now time.Time) {
	if days := sys.Logging.LogRetention; days > 0 {
		before := now.Add(-time.Duration(days) * day)
		if n, err := store.PruneLogs(ctx, before); err != nil && ctx.Err() == nil {
			slog.Warn("prune logs", "err", err)
		} else if n > 0 {
			slog.Info("pruned log records", "count", n)
		}
		if _, err := store.PruneAlerts(ctx, before); err != nil && ctx.Err() == nil {
			slog.Warn("prune alerts", "err", err)
		}
	}
	if days := sys.Monitoring.MetricsRetention; days > 0 {
		if _, err := store.PrunePortfolioPoints(ctx, now.Add(-time.Duration(days)*day)); err != nil && ctx.Err() == nil {
			slog.Warn("prune portfolio history", "err", err)
		}
	}
}
