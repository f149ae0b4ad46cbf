package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"kestrel/domain"
)

// These loops read the platform settings on every round, so a change takes
// effect from the next round without a restart.

// backuper is a store that can copy itself while running (SQLite).
type backuper interface {
	BackupTo(ctx context.Context, path string) error
}

// healthChecks pings the database every healthCheckInterval while enabled;
// a failure counts in the metrics and raises a critical alert.
func (a *App) healthChecks(ctx context.Context) {
	for {
		m := a.Settings.Platform().System.Monitoring
		wait := time.Duration(m.HealthCheckInterval) * time.Millisecond
		if wait < time.Second {
			wait = time.Minute
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if !a.Settings.Platform().System.Monitoring.EnableHealthChecks {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := a.Store.Ping(pctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			a.Metrics.DatabaseErrors.Inc()
			a.Alerts.Raise(ctx, "database:unreachable", domain.SeverityCritical, "database", "Database unreachable", "Health check failed: "+err.Error())
		}
	}
}

// retention prunes rows older than the configured retention once an hour:
// log records and resolved alerts after logRetention days, portfolio-value
// points after metricsRetention days.
func (a *App) retention(ctx context.Context) {
	for {
		sys := a.Settings.Platform().System
		now := time.Now()
		day := 24 * time.Hour
		if sys.Logging.LogRetention > 0 {
			before := now.Add(-time.Duration(sys.Logging.LogRetention) * day)
			if n, err := a.Store.PruneLogs(ctx, before); err != nil && ctx.Err() == nil {
				slog.Warn("prune logs", "err", err)
			} else if n > 0 {
				slog.Info("pruned log records", "count", n)
			}
			if _, err := a.Store.PruneAlerts(ctx, before); err != nil && ctx.Err() == nil {
				slog.Warn("prune alerts", "err", err)
			}
		}
		if sys.Monitoring.MetricsRetention > 0 {
			if _, err := a.Store.PrunePortfolioPoints(ctx, now.Add(-time.Duration(sys.Monitoring.MetricsRetention)*day)); err != nil && ctx.Err() == nil {
				slog.Warn("prune portfolio history", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
	}
}

// backups makes a local online copy of the database every backupInterval
// while enabled and keeps the newest backupRetention copies.
func (a *App) backups(ctx context.Context) {
	last := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
		b := a.Settings.Platform().System.Backup
		if !b.EnableAutoBackup || time.Since(last) < time.Duration(b.BackupInterval)*time.Millisecond {
			continue
		}
		last = time.Now()
		if _, err := a.Backup(ctx); err != nil && ctx.Err() == nil {
			a.Alerts.Raise(ctx, "backup:failed", domain.SeverityHigh, "backup", "Backup failed", err.Error())
		}
	}
}

// Backup writes one backup now and applies the retention.
func (a *App) Backup(ctx context.Context) (string, error) {
	b := a.Settings.Platform().System.Backup
	if b.BackupLocation != "local" && b.BackupLocation != "" {
		return "", fmt.Errorf("backup location %q is not supported; use local", b.BackupLocation)
	}
	st, ok := a.Store.(backuper)
	if !ok {
		return "", fmt.Errorf("automatic backups cover the embedded SQLite database; back up PostgreSQL with its own tools (pg_dump or continuous archiving)")
	}
	dir := filepath.Join(a.cfg.DataDir, "backups")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "kestrel-"+time.Now().UTC().Format("20060102T150405Z")+".db")
	if err := st.BackupTo(ctx, path); err != nil {
		return "", fmt.Errorf("backup to %s: %w", path, err)
	}
	slog.Info("database backed up", "path", path)
	keep := b.BackupRetention
	if keep < 1 {
		keep = 1
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return path, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "kestrel-") && strings.HasSuffix(e.Name(), ".db") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names) // timestamped names sort oldest first
	for len(names) > keep {
		if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
			return path, err
		}
		names = names[1:]
	}
	return path, nil
}
