package migrate_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// engineOnly are the tables one engine has by design; every other table must
// exist, with the same columns, in both migration sets.
var engineOnly = map[string]string{
	// The cluster fence and leader lease exist only where several instances
	// share one database; SQLite serves one process (0015, 0024).
	"cluster_fence":  "postgres",
	"cluster_leader": "postgres",
}

// schema maps a table to its column names.
type schema map[string][]string

// Both migration sets, applied to a fresh database of each engine, define the
// same tables with the same column names (types are each engine's own).
func TestMigrationSetsDefineTheSameSchema(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pgURL := pgtest.URL(t) // skips, saying so, when PostgreSQL is unreachable

	lite := sqliteSchema(t, ctx)
	pg := postgresSchema(t, ctx, pgURL)
	if len(lite) < 10 || len(pg) < 10 {
		t.Fatalf("catalogues read %d SQLite and %d PostgreSQL tables: too few to compare", len(lite), len(pg))
	}
	t.Logf("compared %d SQLite and %d PostgreSQL tables", len(lite), len(pg))
	if diff := compare(lite, pg); len(diff) > 0 {
		t.Fatalf("the migration sets differ:\n%s", strings.Join(diff, "\n"))
	}
}

// compare lists every table or column present on one side only, except the
// allow-listed engine-only tables (which must then exist on their engine).
func compare(lite, pg schema) []string {
	var diff []string
	for table, engine := range engineOnly {
		side := map[string]schema{"sqlite": lite, "postgres": pg}[engine]
		if _, ok := side[table]; !ok {
			diff = append(diff, fmt.Sprintf("engine-only table %s is missing from %s", table, engine))
		}
	}
	diff = append(diff, missing(lite, pg, "SQLite", "PostgreSQL")...)
	diff = append(diff, missing(pg, lite, "PostgreSQL", "SQLite")...)
	sort.Strings(diff)
	return diff
}

// missing lists what a has and b lacks.
func missing(a, b schema, aName, bName string) []string {
	var out []string
	for table, cols := range a {
		if _, ok := engineOnly[table]; ok {
			continue
		}
		other, ok := b[table]
		if !ok {
			out = append(out, fmt.Sprintf("table %s: in %s, not in %s", table, aName, bName))
			continue
		}
		has := map[string]bool{}
		for _, c := range other {
			has[c] = true
		}
		for _, c := range cols {
			if !has[c] {
				out = append(out, fmt.Sprintf("column %s.%s: in %s, not in %s", table, c, aName, bName))
			}
		}
	}
	return out
}

func sqliteSchema(t *testing.T, ctx context.Context) schema {
	t.Helper()
	path := filepath.Join(t.TempDir(), "parity.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT m.name, c.name
		FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	return readSchema(t, rows)
}

func postgresSchema(t *testing.T, ctx context.Context, url string) schema {
	t.Helper()
	s, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT table_name, column_name
		FROM information_schema.columns c
		WHERE table_schema = current_schema()
		  AND EXISTS (SELECT 1 FROM information_schema.tables t
		              WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name
		                AND t.table_type = 'BASE TABLE')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	return readSchema(t, rows)
}

// readSchema reads (table, column) rows.
func readSchema(t *testing.T, rows interface {
	Next() bool
	Scan(...any) error
	Err() error
}) schema {
	t.Helper()
	out := schema{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], col)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
