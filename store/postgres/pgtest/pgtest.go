// Package pgtest gives tests a private PostgreSQL schema when a server is
// reachable, and skips them with a clear line when it is not.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BaseURL is the server tests use: KESTREL_TEST_DATABASE_URL or the local default.
func BaseURL() string {
	if u := os.Getenv("KESTREL_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// URL creates a fresh schema, drops it when the test ends, and returns a URL
// whose connections use it. Without a reachable server the test is skipped,
// or fails when KESTREL_REQUIRE_POSTGRES=1 (CI sets it).
func URL(t testing.TB) string {
	t.Helper()
	base := BaseURL()
	schema := create(t, 5*time.Second, base, "CREATE SCHEMA %s", "DROP SCHEMA %s CASCADE")
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", redact(base), err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// connect opens an administrative connection to base, or skips the test
// (fails it when KESTREL_REQUIRE_POSTGRES=1) when no server answers.
func connect(t testing.TB, ctx context.Context, base string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("KESTREL_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL required but not reachable at %s: %v", redact(base), err)
		}
		t.Skipf("SKIP: PostgreSQL not reachable at %s (%v); PostgreSQL tests did not run", redact(base), err)
	}
	return conn
}

// create makes a uniquely named object on base with the statement
// createSQL (the name at its %s) within timeout, drops it with dropSQL when
// the test ends, and returns its name. It skips or fails like connect when
// no server answers.
func create(t testing.TB, timeout time.Duration, base, createSQL, dropSQL string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn := connect(t, ctx, base)
	defer conn.Close(ctx)
	name := uniqueName()
	if _, err := conn.Exec(ctx, fmt.Sprintf(createSQL, name)); err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(createSQL, name), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, base); err == nil {
			c.Exec(ctx, fmt.Sprintf(dropSQL, name))
			c.Close(ctx)
		}
	})
	return name
}

// uniqueName names a test's schema or database.
func uniqueName() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "kestrel_test_" + hex.EncodeToString(b)
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}

// Database creates a fresh database (not a schema: a test may cut every
// connection to it without touching anyone else's), drops it when the test
// ends, and returns its name and a URL whose connections use it. It skips
// or fails like URL when no server is reachable.
func Database(t testing.TB) (name, dbURL string) {
	t.Helper()
	base := BaseURL()
	// FORCE ends the connections a killed server left behind.
	name = create(t, 10*time.Second, base, "CREATE DATABASE %s", "DROP DATABASE IF EXISTS %s WITH (FORCE)")
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", redact(base), err)
	}
	u.Path = "/" + name
	return name, u.String()
}
