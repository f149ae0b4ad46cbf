// Package backup copies the database into a local directory on the
// schedule the settings ask for, keeping the newest few copies.
package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"kestrel/domain"
	"kestrel/settings"
)

// Copier is a database that can copy itself while running (SQLite's online
// backup). BackupTo writes a consistent copy to path.
type Copier interface {
	BackupTo(ctx context.Context, path string) error
}

// Alerter raises a deduplicated system alert (alert.Service).
type Alerter interface {
	Raise(ctx context.Context, key, severity, component, title, message string)
}

// ErrUnsupported is returned when the database cannot copy itself.
var ErrUnsupported = errors.New("automatic backups cover the embedded SQLite database; back up PostgreSQL with its own tools (pg_dump or continuous archiving)")

// Backups writes database copies named kestrel-<UTC time>.db into Dir.
type Backups struct {
	db       Copier // nil: the database cannot copy itself
	dir      string
	platform func() settings.Settings
	alerts   Alerter
	clock    domain.Clock
}

// New returns the backups of db into dir; db may be nil (PostgreSQL), and
// then every attempt fails with ErrUnsupported and raises the alert.
func New(db Copier, dir string, platform func() settings.Settings, alerts Alerter, clock domain.Clock) *Backups {
	return &Backups{db: db, dir: dir, platform: platform, alerts: alerts, clock: clock}
}

// Run looks once a minute whether a backup is due (auto backup on and
// backupInterval passed since the last) until ctx ends. The settings are
// read each round, so a change applies without a restart.
func (b *Backups) Run(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
		if !b.due(last) {
			continue
		}
		last = b.clock.Now()
		if _, err := b.Take(ctx); err != nil && ctx.Err() == nil {
			b.alerts.Raise(ctx, "backup:failed", domain.SeverityHigh, "backup", "Backup failed", err.Error())
		}
	}
}

func (b *Backups) due(last time.Time) bool {
	s := b.platform().System.Backup
	return s.EnableAutoBackup && b.clock.Now().Sub(last) >= time.Duration(s.BackupInterval)*time.Millisecond
}

// Take writes one backup now, then deletes all but the newest
// backupRetention copies. It returns the new copy's path.
func (b *Backups) Take(ctx context.Context) (string, error) {
	s := b.platform().System.Backup
	if b.db == nil {
		return "", ErrUnsupported
	}
	if err := os.MkdirAll(b.dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(b.dir, "kestrel-"+b.clock.Now().UTC().Format("20060102T150405Z")+".db")
	if err := b.db.BackupTo(ctx, path); err != nil {
		return "", fmt.Errorf("backup to %s: %w", path, err)
	}
	slog.Info("database backed up", "path", path, "component", "backup")
	return path, b.keepNewest(max(s.BackupRetention, 1))
}

// keepNewest deletes the oldest copies beyond keep.
func (b *Backups) keepNewest(keep int) error {
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "kestrel-") && strings.HasSuffix(e.Name(), ".db") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names) // timestamped names sort oldest first
	for ; len(names) > keep; names = names[1:] {
		if err := os.Remove(filepath.Join(b.dir, names[0])); err != nil {
			return err
		}
	}
	return nil
}
