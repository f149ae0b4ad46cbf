// Package retention deletes log records and resolved alerts older than the
// log retention the settings keep, and downsamples the portfolio value
// history, which is the account's record and is kept for its life: minute
// points become hourly after HourlyAfter and daily after DailyAfter.
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
	ThinPortfolioPoints(ctx context.Context, before time.Time, bucket time.Duration) (int64, error)
}

// The portfolio history's resolution by age: as recorded (at least a point a
// minute) for HourlyAfter, then hourly, then daily after DailyAfter.
const (
	HourlyAfter = 2 * day
	DailyAfter  = 90 * day
)

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
// days (zero keeps everything) and downsamples the portfolio history; no
// retention setting deletes the account's history. Failures are logged: the
// next round tries again.
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
	for _, tier := range []struct{ after, bucket time.Duration }{{HourlyAfter, time.Hour}, {DailyAfter, day}} {
		if n, err := store.ThinPortfolioPoints(ctx, now.Add(-tier.after), tier.bucket); err != nil && ctx.Err() == nil {
			slog.Warn("downsample portfolio history", "bucket", tier.bucket, "err", err)
		} else if n > 0 {
			slog.Info("downsampled portfolio history", "bucket", tier.bucket, "removed", n)
		}
	}
}
