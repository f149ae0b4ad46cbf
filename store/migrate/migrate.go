// Package migrate applies a store's embedded, numbered SQL migrations in order.
// Each engine owns its SQL; this package only sequences the files. The stores
// share one numbering: a number is one schema change, and a store that does
// not need it skips the number (0015, the cluster fence, is PostgreSQL's only).
package migrate

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Migration is one numbered SQL file, e.g. 0001_accounts.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Load reads every *.sql file of dir in fsys, ordered by its numeric prefix.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		prefix, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(prefix)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number and '_'", e.Name())
		}
		body, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("two migrations numbered %d", out[i].Version)
		}
	}
	return out, nil
}

// Target is what an engine offers to the runner.
type Target interface {
	// AppliedVersions returns every version already applied (none for a new database).
	AppliedVersions(ctx context.Context) (map[int]bool, error)
	// Apply runs one migration and records its version in one transaction.
	Apply(ctx context.Context, m Migration) error
}

// Up applies, in order, every migration the target has not applied yet,
// including one numbered below the newest applied (work from two branches
// landing in either order).
func Up(ctx context.Context, t Target, ms []Migration) error {
	done, err := t.AppliedVersions(ctx)
	if err != nil {
		return fmt.Errorf("applied migrations: %w", err)
	}
	for _, m := range ms {
		if done[m.Version] {
			continue
		}
		if err := t.Apply(ctx, m); err != nil {
			return fmt.Errorf("apply %s: %w", m.Name, err)
		}
	}
	return nil
}
