// Package postgres implements Kestrel's store on PostgreSQL through pgx,
// selected by a postgres:// database URL.
package postgres

import (
	"context"
	"embed"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"kestrel/domain"
	"kestrel/store/migrate"
	"kestrel/store/sqlcore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store implements domain.Store on PostgreSQL.
type Store struct {
	sqlcore.Core // the methods both engines share

	db db
	// epoch is the cluster fencing epoch the ledger commits check (fence.go);
	// zero: not fenced, no check.
	epoch atomic.Int64
	// afterFence, set by tests only, runs inside a fenced ledger commit once
	// the fence row is held, before the commit.
	afterFence func()
	// fenceGrace, set by tests only, replaces FenceGrace.
	fenceGrace time.Duration
}

var _ domain.Store = (*Store)(nil)

// Open connects to url and migrates the database.
func Open(ctx context.Context, url string) (*Store, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	s := &Store{db: db{pool}}
	s.Core = newCore(s)
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	ms, err := migrate.Load(migrations, "migrations")
	if err == nil {
		err = migrate.Up(ctx, s, ms)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate postgres: %w", err)
	}
	return s, nil
}

// Close closes the pool.
func (s *Store) Close() error { s.db.Close(); return nil }

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.Ping(ctx) }

// AppliedVersions implements migrate.Target.
func (s *Store) AppliedVersions(ctx context.Context) (map[int]bool, error) {
	if _, err := s.db.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		return nil, err
	}
	return s.MigratedVersions(ctx)
}

// tx runs fn in a transaction, committing when it returns nil. A lost
// connection is an EUnavailable error (the transaction did not commit, or
// its commit was not confirmed).
func (s *Store) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	return s.db.BeginFunc(ctx, fn)
}
