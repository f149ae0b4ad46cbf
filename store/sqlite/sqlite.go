// Package sqlite is Kestrel's embedded default store: a pure-Go SQLite database
// in WAL mode with one writer connection and a small pool of readers.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"kestrel/domain"
	"kestrel/store/migrate"
	"kestrel/store/sqlcore"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store implements domain.Store on SQLite.
type Store struct {
	sqlcore.Core // the methods both engines share

	w db // the one writer connection: SQLite allows a single writer anyway
	r db // readers; WAL lets them run beside the writer

	stmts stmts
	audit auditQueue
}

var (
	_ domain.Store       = (*Store)(nil)
	_ domain.WriteHealth = (*Store)(nil)
)

// Open opens (creating if needed) the database file at path and migrates it.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	r.SetMaxOpenConns(4)
	s := &Store{w: db{pool: w, health: newWriteHealth()}, r: db{pool: r}}
	s.Core = newCore(s)
	s.audit.cond.L = &s.audit.mu
	ms, err := migrate.Load(migrations, "migrations")
	if err == nil {
		err = migrate.Up(ctx, s, ms)
	}
	if err == nil {
		err = s.prepareWriter(ctx)
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate sqlite: %w", err)
	}
	return s, nil
}

// Close closes both pools.
func (s *Store) Close() error {
	s.closeStmts()
	return errors.Join(s.r.Close(), s.w.Close())
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	return s.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// AppliedVersions implements migrate.Target.
func (s *Store) AppliedVersions(ctx context.Context) (map[int]bool, error) {
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return nil, err
	}
	return s.MigratedVersions(ctx)
}

// tx runs fn in a write transaction, committing when it returns nil; any
// error rolls it back whole. Errors leave through unavailable: fn returns
// them as the driver gives them.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		err = unavailable(err)
		s.w.health.note(err)
		return err
	}
	err = unavailable(tx.Commit())
	s.w.health.note(err)
	return err
}

// ms converts a time to the integer milliseconds stored in SQLite.
func ms(t time.Time) int64 { return t.UnixMilli() }

// BackupTo writes a consistent copy of the live database to path (VACUUM
// INTO reads one snapshot while writers go on). It writes only the copy,
// so its outcome says nothing of the database's own writes.
func (s *Store) BackupTo(ctx context.Context, path string) error {
	if err := createPrivateEmpty(path); err != nil {
		return err
	}
	_, err := s.w.untracked().ExecContext(ctx, `VACUUM INTO ?`, path)
	if err != nil {
		os.Remove(path) // the empty file, or a partial copy
	}
	return err
}
