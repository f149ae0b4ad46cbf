package main

import (
	"context"
	"net/http"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
)

// killFor is how long the server's connections are killed as they come,
// outageFor how long the test database then refuses connections.
const (
	killFor   = 1500 * time.Millisecond
	outageFor = 3 * time.Second
)

// TestPostgresOutageRefusesAndRecovers cuts the server off its PostgreSQL
// database mid-flood: first its connections are terminated as they come
// (killFor), then the database stops accepting connections and every one the
// server holds is terminated, repeatedly, for outageFor. Only
// the test's own database is touched (pgtest.Database), never the server.
// Meanwhile the health endpoint must say unhealthy and orders must be
// refused with a 503 "unavailable" envelope (never a 500), as must the reads
// only the database can answer, a sign-in and a session no cache knows yet
// (readProbes); once the database is back the server must recover by itself
// (the probes all succeed again, that session included), and after retrying
// every refused or unanswered request the ledger must hold every
// acknowledged order exactly once, with holds and balances reconciled.
func TestPostgresOutageRefusesAndRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server and cuts its database off")
	}
	ctx := context.Background()
	began := time.Now()
	name, url := pgtest.Database(t)
	admin, err := pgx.Connect(ctx, pgtest.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	allow := func(on bool) {
		q := "ALTER DATABASE " + name + " ALLOW_CONNECTIONS false"
		if on {
			q = "ALTER DATABASE " + name + " ALLOW_CONNECTIONS true"
		}
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true") })
	terminate := func() int {
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	srv := startServer(t, "--data-dir", t.TempDir(), "--database-url", url)
	f := newFlood(t, srv.url, "outage")
	probes := readProbes(t, srv.url, f.c)
	health := func() string {
		var h struct {
			Status string `json:"status"`
		}
		if _, err := f.c.Do(ctx, http.MethodGet, "/api/system/health", nil, &h); err != nil {
			t.Errorf("health: %v", err)
		}
		return h.Status
	}
	waitAcked := func(n int, within time.Duration) {
		t.Helper()
		for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
			f.mu.Lock()
			got := f.acked
			f.mu.Unlock()
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d placements acknowledged after %v, want %d", got, within, n)
			}
		}
	}

	// The flood runs (as a lost answer would stop it, the server must keep
	// answering) until it is halted.
	done := make(chan struct{})
	go func() { defer close(done); f.run(1<<30, -1, nil, nil) }()
	defer func() { f.halt.Store(true); <-done }()
	waitAcked(100, 15*time.Second)

	// First the connections are killed while new ones may be made: work in
	// flight (a journal commit among it) dies mid-statement, the pool
	// reconnects, orders keep flowing.
	var terminated atomic.Int64
	for end := time.Now().Add(killFor); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		terminated.Add(int64(terminate()))
	}
	refusedKilling := f.refusedTotal()
	// Then the outage: no new connection, every existing one terminated.
	f.mu.Lock()
	before := f.acked
	f.mu.Unlock()
	allow(false)
	terminated.Add(int64(terminate())) // no connection is left for the probes' first round
	stopProbes := sendProbes(t, probes)
	defer stopProbes() // on a failure; stopping twice is harmless
	var unhealthy, healthy atomic.Int64
	for end := time.Now().Add(outageFor); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		terminated.Add(int64(terminate()))
		if health() == "unhealthy" {
			unhealthy.Add(1)
		} else {
			healthy.Add(1)
		}
	}
	f.mu.Lock()
	during := f.acked - before
	f.mu.Unlock()
	refusedOutage := f.refusedTotal() - refusedKilling
	stopProbes()
	allow(true)
	back := time.Now()
	for health() != "healthy" {
		if time.Since(back) > 15*time.Second {
			t.Fatal("the server still reports unhealthy 15 s after the database came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	recovered := time.Since(back)
	probesRecovered(t, probes)
	f.mu.Lock()
	after := f.acked
	f.mu.Unlock()
	waitAcked(after+100, 15*time.Second)
	f.halt.Store(true)
	<-done
	if f.down.Load() {
		t.Fatal("a request got no answer: the server died or dropped a connection")
	}
	t.Logf("connections killed for %v: %d requests refused; database refusing connections for %v: health unhealthy %d times, healthy %d, %d requests refused, %d placements acknowledged (in flight before); %d server connections terminated in all; healthy again %v after the database came back",
		killFor, refusedKilling, outageFor, unhealthy.Load(), healthy.Load(), refusedOutage, during, terminated.Load(), recovered.Round(10*time.Millisecond))
	if unhealthy.Load() == 0 {
		t.Error("the health endpoint never reported unhealthy while the database was unreachable")
	}
	if refusedOutage == 0 {
		t.Error("no request was refused while the database was unreachable")
	}
	t.Logf("reads while the database was unreachable: %s", checkProbes(t, probes))
	if t.Failed() {
		return
	}

	retried := f.retry()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	verifyLedger(t, ctx, st, f)
	t.Logf("%s; %d placements acknowledged, %d requests retried (%d placements of them had been stored though refused); %s",
		f.counts(), f.acked, retried, f.found, time.Since(began).Round(100*time.Millisecond))
}
