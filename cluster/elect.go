package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Advisory lock keys (the ASCII of "kestrel" and a suffix): the engine's
// leadership, and the start-up section that migrates and funds the ledger.
const (
	EngineLockKey  int64 = 0x6b65737472656c01
	StartupLockKey int64 = 0x6b65737472656c02
)

// Elector campaigns for the engine lock.
type Elector struct {
	url     string
	retry   time.Duration
	leading atomic.Bool
	// OnChange, when set before Run, is told of every change of leadership.
	OnChange func(leading bool)
}

// NewElector campaigns on the database at url, trying every retry.
func NewElector(url string, retry time.Duration) *Elector {
	if retry <= 0 {
		retry = time.Second
	}
	return &Elector{url: url, retry: retry}
}

// Leading reports whether this instance holds the lock now.
func (e *Elector) Leading() bool { return e.leading.Load() }

// Run campaigns until ctx ends. While this instance leads, lead runs with
// a context that is cancelled as soon as the lock's session is in doubt;
// lead must return promptly then. Run returns after lead has.
func (e *Elector) Run(ctx context.Context, lead func(ctx context.Context)) {
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, e.url)
		if err != nil {
			slog.Warn("leader election cannot reach the database; retrying", "err", err, "component", "cluster")
			sleep(ctx, e.retry)
			continue
		}
		e.campaign(ctx, conn, lead)
		closeCtx, cancel := context.WithTimeout(context.Background(), e.retry)
		conn.Close(closeCtx) // ends the session: the lock, if held, is free for another instance
		cancel()
	}
}

// campaign tries for the lock on conn until it is won (then holds it) or
// the connection fails.
func (e *Elector) campaign(ctx context.Context, conn *pgx.Conn, lead func(context.Context)) {
	for {
		qctx, cancel := context.WithTimeout(ctx, 2*e.retry)
		var won bool
		err := conn.QueryRow(qctx, "SELECT pg_try_advisory_lock($1)", EngineLockKey).Scan(&won)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			slog.Warn("leader election query failed; reconnecting", "err", err, "component", "cluster")
			return
		case won:
			e.hold(ctx, conn, lead)
			return
		}
		if !sleep(ctx, e.retry) {
			return
		}
	}
}

// hold runs lead while the lock's session answers; it checks every retry
// and steps down at the first failure, since another instance may then
// take the lock.
func (e *Elector) hold(ctx context.Context, conn *pgx.Conn, lead func(context.Context)) {
	leadCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	e.set(true)
	go func() { defer close(done); lead(leadCtx) }()
	stepDown := func() { stop(); <-done; e.set(false) }
	t := time.NewTicker(e.retry)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			stepDown()
			uctx, cancel := context.WithTimeout(context.Background(), e.retry)
			_, _ = conn.Exec(uctx, "SELECT pg_advisory_unlock($1)", EngineLockKey) // hand over at once
			cancel()
			return
		case <-done:
			e.set(false) // lead gave up on its own: release so another instance can try
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, e.retry)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				slog.Error("lost the leader lock's database session; stopping the trading engine", "err", err, "component", "cluster")
				stepDown()
				return
			}
		}
	}
}

func (e *Elector) set(leading bool) {
	if e.leading.Swap(leading) != leading && e.OnChange != nil {
		e.OnChange(leading)
	}
}

// StartupLock serialises the start of instances sharing a database (the
// migrations and the sandbox's first funding must run once): it blocks
// until this instance holds the lock and returns its release.
func StartupLock(ctx context.Context, url string) (release func(), err error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("start-up lock: %w", err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", StartupLockKey); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("start-up lock: %w", err)
	}
	return func() { conn.Close(context.Background()) }, nil // closing the session releases the lock
}

// sleep waits d or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
