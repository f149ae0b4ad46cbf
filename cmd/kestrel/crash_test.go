package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// The crash test runs this test binary as the server: with
// KESTREL_CRASH_CHILD set it is `kestrel serve` and nothing else.
func TestMain(m *testing.M) {
	if os.Getenv("KESTREL_CRASH_CHILD") == "1" {
		if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "kestrel:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// server is one run of the real server process.
type server struct {
	cmd *exec.Cmd
	url string
}

// startServer starts `kestrel serve` on a free loopback port and waits until
// it serves.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "INFO"}, args...)...)
	cmd.Env = append(os.Environ(), "KESTREL_CRASH_CHILD=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		// KESTREL_CRASH_SERVER_LOG keeps the servers' logs for a failure's post-mortem.
		var keep io.Writer = io.Discard
		if p := os.Getenv("KESTREL_CRASH_SERVER_LOG"); p != "" {
			if f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
				defer f.Close()
				keep = f
			}
		}
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(keep, line)
			if i := strings.Index(line, "url=http://"); i >= 0 && strings.Contains(line, "kestrel serving") {
				select {
				case found <- strings.Fields(line[i+4:])[0]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return &server{cmd: cmd, url: u}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not start within 20 s")
	}
	return nil
}

// crashRequests is the size of one run's flood, crashKills how many times
// it is killed on the way.
const (
	crashRequests = 1000
	crashKills    = 3
)

// crashSeed is KESTREL_CRASH_SEED when set (to replay a failed run's kill
// points), else the clock.
func crashSeed(t *testing.T) uint64 {
	if s := os.Getenv("KESTREL_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("KESTREL_CRASH_SEED=%q: %v", s, err)
		}
		return n
	}
	return uint64(time.Now().UnixNano())
}

// openLedger opens the server's store beside it, for the checks.
type openLedger func(context.Context) (domain.LedgerStore, func())

// TestKillNineLosesNothingAcknowledged floods the real server with 1,000
// requests (market, limit, stop-loss, modify, cancel; placements carry client
// order ids) and kills it with SIGKILL at several seeded random moments.
// After each kill it restarts the server on the same data and retries every
// request that got no answer; then, and at the end, every acknowledged order
// must exist exactly once with its id, acknowledged cancels and modifies
// must hold, holds must equal the live orders' holds and balances must
// reconcile with the fills.
func TestKillNineLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server four times per database")
	}
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		killNine(t, []string{"--data-dir", dir}, func(ctx context.Context) (domain.LedgerStore, func()) {
			st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
			if err != nil {
				t.Fatal(err)
			}
			return st, func() { st.Close() }
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		killNine(t, []string{"--data-dir", t.TempDir(), "--database-url", url}, func(ctx context.Context) (domain.LedgerStore, func()) {
			st, err := postgres.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			return st, func() { st.Close() }
		})
	})
}

func killNine(t *testing.T, args []string, open openLedger) {
	ctx := context.Background()
	began := time.Now()
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0))
	// One kill in each of crashKills equal windows of the flood (after the
	// first hundred requests and before the last 2 x lateMargin), 0-30 ms
	// after that request is handed out or sooner when the flood nears its
	// end; the flood goes on until the server stops answering, so requests
	// are in flight at every kill.
	window := (crashRequests - 100 - 2*lateMargin) / crashKills
	var kills []int
	var delays []time.Duration
	for k := 0; k < crashKills; k++ {
		kills = append(kills, 100+k*window+rng.IntN(window-50))
		delays = append(delays, time.Duration(rng.IntN(30))*time.Millisecond)
	}
	t.Logf("seed %d: kills after requests %v, %v later (KESTREL_CRASH_SEED=%d replays them)", seed, kills, delays, seed)

	srv := startServer(t, args...)
	f := newFlood(t, srv.url, "crash")
	check := func() {
		st, closeStore := open(ctx)
		defer closeStore()
		verifyLedger(t, ctx, st, f)
	}
	retried := 0
	for k, at := range kills {
		reached, late := make(chan struct{}), make(chan struct{})
		done := make(chan struct{})
		go func() { defer close(done); f.run(crashRequests, at, reached, late) }()
		select {
		case <-reached:
		case <-done:
			t.Fatalf("the flood stopped before request %d", at)
		}
		select { // the delay, unless the flood nears its end first
		case <-time.After(delays[k]):
		case <-late:
		}
		if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		srv.cmd.Wait()
		<-done
		if f.next >= crashRequests {
			t.Fatal("the flood ended before the kill")
		}
		f.mu.Lock()
		t.Logf("kill %d after %d requests: %d placements acknowledged so far", k+1, f.next, f.acked)
		f.mu.Unlock()

		srv = startServer(t, args...)
		f.c.Base = srv.url
		n := f.retry()
		retried += n
		t.Logf("restart %d: %d unanswered requests retried", k+1, n)
		if t.Failed() {
			return
		}
		check()
	}
	f.run(crashRequests, -1, nil, nil)
	n := f.retry()
	retried += n
	replayed := f.replay()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	check()
	t.Logf("%s; %d kills, %d placements acknowledged, %d requests retried (%d placements of them had been stored before the kill), %d placements replayed; %s",
		f.counts(), len(kills), f.acked, retried, f.found, replayed, time.Since(began).Round(100*time.Millisecond))
}
