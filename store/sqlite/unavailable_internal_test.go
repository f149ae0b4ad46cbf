package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"kestrel/domain"
)

// Real SQLite failures, each produced on a database of the test's own,
// sorted into "cannot work for now" (EUnavailable, 503) and the rest
// (unchanged: a 409 or a 500 as before).
func TestUnavailableSortsFaultsFromRefusals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func(name, pragmas string) *sql.DB {
		t.Helper()
		d, err := sql.Open("sqlite", "file:"+filepath.Join(dir, name)+"?_pragma=journal_mode(WAL)"+pragmas)
		if err != nil {
			t.Fatal(err)
		}
		d.SetMaxOpenConns(1)
		t.Cleanup(func() { d.Close() })
		return d
	}
	exec := func(d *sql.DB, q string) error {
		_, err := d.ExecContext(ctx, q)
		return err
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	d := open("k.db", "")
	must(exec(d, `CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)`))
	must(exec(d, `INSERT INTO t VALUES ('a', 'x')`))

	full := func() error { // the database capped at its size, then a row bigger than a page
		must(exec(d, `PRAGMA max_page_count = 1`))
		defer exec(d, `PRAGMA max_page_count = 1073741823`)
		return exec(d, `INSERT INTO t VALUES ('big', printf('%.*c', 100000, 'x'))`)
	}
	readOnly := func() error {
		must(exec(d, `PRAGMA query_only = 1`))
		defer exec(d, `PRAGMA query_only = 0`)
		return exec(d, `INSERT INTO t VALUES ('b', 'y')`)
	}
	busy := func() error { // another connection holds the write lock past the busy timeout
		other := open("k.db", "")
		tx, err := other.BeginTx(ctx, nil)
		must(err)
		defer tx.Rollback()
		_, err = tx.ExecContext(ctx, `INSERT INTO t VALUES ('c', 'z')`)
		must(err)
		return exec(open("k.db", "&_pragma=busy_timeout(20)"), `INSERT INTO t VALUES ('d', 'w')`)
	}
	cannotOpen := func() error {
		return open(filepath.Join("missing", "k.db"), "").PingContext(ctx)
	}
	var scanned string
	for _, c := range []struct {
		name string
		err  error
		want string // the domain code after unavailable
		msg  string
	}{
		{"disk full", full(), domain.EUnavailable, MsgDiskFull},
		{"read-only", readOnly(), domain.EUnavailable, domain.MsgDatabaseUnavailable},
		{"locked past the busy timeout", busy(), domain.EUnavailable, domain.MsgDatabaseUnavailable},
		{"cannot open the file", cannotOpen(), domain.EUnavailable, domain.MsgDatabaseUnavailable},
		{"unique violation", exec(d, `INSERT INTO t VALUES ('a', 'again')`), domain.EInternal, ""},
		{"syntax error", exec(d, `INSERT INTO`), domain.EInternal, ""},
		{"no rows", d.QueryRowContext(ctx, `SELECT v FROM t WHERE k = 'none'`).Scan(&scanned), domain.EInternal, ""},
		{"a domain error", domain.Errorf(domain.ENotFound, "Order not found"), domain.ENotFound, "Order not found"},
	} {
		if c.err == nil {
			t.Errorf("%s: no error was produced", c.name)
			continue
		}
		got := unavailable(c.err)
		if code := domain.ErrorCode(got); code != c.want {
			t.Errorf("%s (%v): code %q, want %q", c.name, c.err, code, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the cause is lost", c.name)
		}
		if c.msg != "" && domain.ErrorMessage(got) != c.msg {
			t.Errorf("%s: message %q, want %q", c.name, domain.ErrorMessage(got), c.msg)
		}
		if c.want == domain.EUnavailable && strings.Contains(domain.ErrorMessage(got), "(") {
			t.Errorf("%s: SQLite's error leaked into the message %q", c.name, domain.ErrorMessage(got))
		}
	}
	if unavailable(nil) != nil {
		t.Error("nil is not an error")
	}
}
