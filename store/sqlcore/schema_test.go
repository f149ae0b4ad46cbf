package sqlcore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/jackc/pgx/v5"

	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// rows is what both drivers' results offer.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// postgresOnly are PostgreSQL's own tables: a cluster of instances shares
// one PostgreSQL database, never an SQLite file.
var postgresOnly = map[string]bool{
	"cluster_leader": true, // the leader's lease
	"cluster_fence":  true, // the epoch fenced ledger writes check
}

// The core runs the same SQL on both engines, so both migration sets must
// end at the same tables with the same columns (types differ by design:
// times are integers in SQLite, timestamptz in PostgreSQL).
func TestBothMigrationSetsDefineTheSameTablesAndColumns(t *testing.T) {
	ctx := context.Background()
	lite, pg := sqliteColumns(t, ctx), postgresColumns(t, ctx)
	for table, cols := range lite {
		if other, ok := pg[table]; !ok {
			t.Errorf("table %s is in the SQLite migrations only", table)
		} else if !reflect.DeepEqual(cols, other) {
			t.Errorf("table %s: SQLite columns %v, PostgreSQL columns %v", table, cols, other)
		}
	}
	for table := range pg {
		if _, ok := lite[table]; !ok && !postgresOnly[table] {
			t.Errorf("table %s is in the PostgreSQL migrations only", table)
		}
	}
}

// sqliteColumns migrates a new SQLite database and lists its tables'
// columns.
func sqliteColumns(t *testing.T, ctx context.Context) map[string][]string {
	path := filepath.Join(t.TempDir(), "schema.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.QueryContext(ctx, `SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return columns(t, r)
}

// postgresColumns migrates a new PostgreSQL schema and lists its tables'
// columns.
func postgresColumns(t *testing.T, ctx context.Context) map[string][]string {
	url := pgtest.URL(t)
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
	r, err := conn.Query(ctx, `SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return columns(t, r)
}

// columns reads (table, column) rows into each table's sorted columns.
func columns(t *testing.T, r rows) map[string][]string {
	out := map[string][]string{}
	for r.Next() {
		var table, col string
		if err := r.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], col)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, cols := range out {
		sort.Strings(cols)
	}
	return out
}
