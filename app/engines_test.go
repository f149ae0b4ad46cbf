package app_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// engine is one database a test runs the whole server on.
type engine struct {
	name string
	// edit points a configuration at the engine's database for dir.
	edit func(c *app.Config)
	// open opens the same database directly (to seed it before a start).
	open func(t *testing.T, dir string) jobStore
}

// jobStore is what the tests seed directly.
type jobStore interface {
	CreateJob(ctx context.Context, j domain.Job) error
	ClaimJob(ctx context.Context, id string, at time.Time) (bool, error)
	SaveSweepTrial(ctx context.Context, tr domain.SweepTrial) error
	Close() error
}

// onEachEngine runs test on SQLite and on PostgreSQL (skipped when no
// server answers, failed when KESTREL_REQUIRE_POSTGRES=1).
func onEachEngine(t *testing.T, test func(t *testing.T, e engine)) {
	t.Run("sqlite", func(t *testing.T) {
		test(t, engine{name: "sqlite", edit: func(*app.Config) {},
			open: func(t *testing.T, dir string) jobStore {
				st, err := sqlite.Open(context.Background(), filepath.Join(dir, "kestrel.db"))
				if err != nil {
					t.Fatal(err)
				}
				return st
			}})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		test(t, engine{name: "postgres", edit: func(c *app.Config) { c.DatabaseURL = url },
			open: func(t *testing.T, _ string) jobStore {
				st, err := postgres.Open(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}})
	})
}
