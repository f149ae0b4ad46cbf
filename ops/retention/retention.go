// Package retention deletes log records and resolved alerts older than the
// log retention the settings keep; backtest reports, sweeps, other finished
// jobs, notification deliveries, AI decisions and the audit log older than
// their system.retention days; and downsamples the portfolio value
// history, which is the account's record and is kept for its life: minute
// points become hourly after HourlyAfter and daily after DailyAfter.
package retention

import (
	"context"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/research"
	"kestrel/settings"
)

// Store deletes old rows; each returns how many it removed.
type Store interface {
	domain.RetentionStore
	PruneEvaluations(ctx context.Context, before time.Time) (int64, error)
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
	pruneGrowth(ctx, store, sys.Retention, now)
	for _, tier := range []struct{ after, bucket time.Duration }{{HourlyAfter, time.Hour}, {DailyAfter, day}} {
		if n, err := store.ThinPortfolioPoints(ctx, now.Add(-tier.after), tier.bucket); err != nil && ctx.Err() == nil {
			slog.Warn("downsample portfolio history", "bucket", tier.bucket, "err", err)
		} else if n > 0 {
			slog.Info("downsampled portfolio history", "bucket", tier.bucket, "removed", n)
		}
	}
}

// pruneGrowth applies system.retention: each kind of record older than its
// days (0 keeps it for ever). Nothing queued, running or pending goes.
func pruneGrowth(ctx context.Context, store Store, r settings.Retention, now time.Time) {
	for _, p := range []struct {
		what  string
		days  int
		prune func(time.Time) (int64, error)
	}{
		{"backtest reports", r.Backtests, func(t time.Time) (int64, error) { return store.PruneBacktests(ctx, t) }},
		{"sweeps", r.Sweeps, func(t time.Time) (int64, error) { return store.PruneJobs(ctx, research.SweepJobKind, t) }},
		{"backfill jobs", r.Jobs, func(t time.Time) (int64, error) { return store.PruneJobs(ctx, marketdata.BackfillJobKind, t) }},
		{"notification deliveries", r.Notifications, func(t time.Time) (int64, error) { return store.PruneDeliveries(ctx, t) }},
		{"AI decisions", r.AIDecisions, func(t time.Time) (int64, error) { return store.PruneEvaluations(ctx, t) }},
		{"audit log entries", r.AuditLog, func(t time.Time) (int64, error) { return store.PruneAudit(ctx, t) }},
	} {
		if p.days <= 0 {
			continue
		}
		if n, err := p.prune(now.Add(-time.Duration(p.days) * day)); err != nil && ctx.Err() == nil {
			slog.Warn("prune "+p.what, "err", err)
		} else if n > 0 {
			slog.Info("pruned "+p.what, "count", n)
		}
	}
}
