package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
)

// The stores the tests open: on a schema of their own, two on one schema,
// or on a database of their own that can be cut off.

// openStore returns a store on a new schema, closed when the test ends.
func openStore(t testing.TB) *postgres.Store {
	t.Helper()
	return openAt(t, pgtest.URL(t))
}

// openAt opens a store on url, closed when the test ends.
func openAt(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s := open(t, url)
	t.Cleanup(func() { s.Close() })
	return s
}

// open opens a store on url; the caller closes it.
func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// twoStores opens two stores on one database, as two instances of a
// cluster do, and a plain connection for looking underneath them.
func twoStores(t *testing.T) (a, b *postgres.Store, conn *pgx.Conn) {
	t.Helper()
	url := pgtest.URL(t)
	a, b = openAt(t, url), openAt(t, url)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return a, b, conn
}

// cutOff opens a store on a database of its own (pgtest.Database) and cuts
// it off: the database refuses connections and the store's are terminated.
// back lets connections in again.
func cutOff(t *testing.T) (st *postgres.Store, back func()) {
	t.Helper()
	ctx := context.Background()
	name, url := pgtest.Database(t)
	st = openAt(t, url)
	admin, err := pgx.Connect(ctx, pgtest.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true") })
	exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false")
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name)
	return st, func() { exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true") }
}
