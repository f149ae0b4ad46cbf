package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// StartupLockKey is the advisory lock (the ASCII of "kestrel" and a
// suffix) of the start-up section that migrates and funds the ledger.
const StartupLockKey int64 = 0x6b65737472656c02

// LeaseTTL is how long a leader's lease lasts without a renewal: a frozen,
// cut-off or lost leader is replaced about this long after its last
// renewal (docs/SCALING.md, Failure behaviour).
const LeaseTTL = 3 * time.Second

// epoch is this process's monotonic time base: lease validity is measured
// on the monotonic clock, which a wall-clock step cannot move and which
// keeps running while the process is stopped.
var epoch = time.Now()

func mono() time.Duration { return time.Since(epoch) }

// Elector campaigns for the cluster's leader lease (table cluster_leader).
// The holder renews it every third of the TTL; it counts itself the leader
// only until the TTL, less a tenth, has passed since it sent its last
// successful renewal, measured on its own monotonic clock. The database
// set the row's expiry later than that (its now() at the renewal, plus the
// TTL), and another instance takes the lease only once the database sees
// it expired, so two instances never both count themselves the leader.
type Elector struct {
	url, instance string
	ttl           time.Duration
	token         string       // this process's claim, never reused
	validUntil    atomic.Int64 // mono() until which the lease is held; 0 when not
	term          atomic.Int64 // the term of the lease held, or last held
	notified      atomic.Bool
	// OnChange, when set before Run, is told of every change of leadership
	// the election loop sees.
	OnChange func(leading bool)
	// Able, when set before Run, says whether this instance can do a
	// leader's work beyond the database (a nil error: it can). It is asked
	// before every try for the lease and every renewal: an instance that
	// cannot reach NATS takes no lease (no command could reach it), and a
	// leader that loses NATS steps down and hands its lease over at once,
	// so an instance that can reach NATS takes over (docs/SCALING.md).
	Able func() error
}

// NewElector campaigns on the database at url for the instance named.
func NewElector(url, instance string, ttl time.Duration) *Elector {
	if ttl <= 0 {
		ttl = LeaseTTL
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return &Elector{url: url, instance: instance, ttl: ttl, token: hex.EncodeToString(b)}
}

// Leading reports whether this instance holds an unexpired lease now. It
// reads the clock, not a flag the election loop sets, so a process that
// wakes from a pause longer than the lease knows at once that it no
// longer leads, before its loop has run.
func (e *Elector) Leading() bool { return mono() < time.Duration(e.validUntil.Load()) }

// Term is the term of the lease this instance holds (or held last).
func (e *Elector) Term() int64 { return e.term.Load() }

// Run campaigns until ctx ends. While this instance leads, lead runs with
// a context that is cancelled as soon as the lease cannot be renewed; lead
// must return promptly then. Run returns after lead has.
func (e *Elector) Run(ctx context.Context, lead func(ctx context.Context)) {
	for ctx.Err() == nil {
		conn, err := e.connect(ctx)
		if err != nil {
			slog.Warn("leader election cannot reach the database; retrying", "err", err, "component", "cluster")
			sleep(ctx, e.retry())
			continue
		}
		e.campaign(ctx, conn, lead)
		closeCtx, cancel := context.WithTimeout(context.Background(), e.retry())
		conn.Close(closeCtx)
		cancel()
	}
}

// retry is how often a follower tries for the lease.
func (e *Elector) retry() time.Duration { return e.ttl / 6 }

// valid is how long a renewal sent at t0 keeps the lease here: the TTL
// less a tenth for the two clocks' rates.
func (e *Elector) valid() time.Duration { return e.ttl * 9 / 10 }

// connect opens the election's own session with TCP keepalives, so a
// connection to a lost database host is dropped rather than left open; each
// query also has a deadline well inside the lease.
func (e *Elector) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(e.url)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: e.ttl, KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: time.Second, Interval: time.Second, Count: 3}}
	cfg.DialFunc = d.DialContext
	cctx, cancel := context.WithTimeout(ctx, e.ttl)
	defer cancel()
	return pgx.ConnectConfig(cctx, cfg)
}

// campaign tries for the lease on conn until it is won (then holds it) or
// the connection fails.
func (e *Elector) campaign(ctx context.Context, conn *pgx.Conn, lead func(context.Context)) {
	for {
		if err := e.able(); err != nil {
			if !sleep(ctx, e.retry()) {
				return
			}
			continue
		}
		sent := mono()
		qctx, cancel := context.WithTimeout(ctx, e.ttl/3)
		var term int64
		err := conn.QueryRow(qctx, `INSERT INTO cluster_leader AS l (id, holder, instance, term, expires_at)
			VALUES (1, $1, $2, 1, now() + $3 * interval '1 millisecond')
			ON CONFLICT (id) DO UPDATE SET holder = $1, instance = $2, term = l.term + 1, expires_at = now() + $3 * interval '1 millisecond'
			WHERE l.expires_at <= now()
			RETURNING term`, e.token, e.instance, e.ttl.Milliseconds()).Scan(&term)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, pgx.ErrNoRows): // another instance holds an unexpired lease
		case err != nil:
			slog.Warn("leader election query failed; reconnecting", "err", err, "component", "cluster")
			return
		default:
			e.term.Store(term)
			e.validUntil.Store(int64(sent + e.valid()))
			e.hold(ctx, conn, lead)
			return
		}
		if !sleep(ctx, e.retry()) {
			return
		}
	}
}

// hold runs lead while the lease is renewed; it steps down at the first
// renewal that fails or does not come back before the lease runs out.
func (e *Elector) hold(ctx context.Context, conn *pgx.Conn, lead func(context.Context)) {
	leadCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	e.notify(true)
	go func() { defer close(done); lead(leadCtx) }()
	stepDown := func() { e.validUntil.Store(0); stop(); <-done; e.notify(false) }
	t := time.NewTicker(e.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			stepDown()
			e.release(conn) // hand over at once
			return
		case <-done:
			e.validUntil.Store(0)
			e.notify(false)
			e.release(conn) // lead gave up on its own: another instance may try
			return
		case <-t.C:
			if err := e.able(); err != nil {
				slog.Error("this leader cannot do its work; stepping down and handing the lease over", "err", err, "term", e.Term(), "component", "cluster")
				stepDown()
				e.release(conn)
				return
			}
			if err := e.renew(ctx, conn); err != nil {
				if ctx.Err() == nil {
					slog.Error("could not renew the leader lease; stopping the trading engine", "err", err, "term", e.Term(), "component", "cluster")
				}
				stepDown()
				return
			}
		}
	}
}

// renew extends the lease; it fails when the lease is no longer ours or
// no answer comes before it would run out.
func (e *Elector) renew(ctx context.Context, conn *pgx.Conn) error {
	sent := mono()
	left := time.Duration(e.validUntil.Load()) - sent
	if left <= 0 {
		return fmt.Errorf("the lease ran out before it could be renewed (the process was paused or too slow)")
	}
	rctx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	tag, err := conn.Exec(rctx, `UPDATE cluster_leader SET expires_at = now() + $3 * interval '1 millisecond'
		WHERE id = 1 AND holder = $1 AND term = $2`, e.token, e.Term(), e.ttl.Milliseconds())
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("the lease of term %d has been taken by another instance", e.Term())
	}
	if mono() >= time.Duration(e.validUntil.Load()) {
		return fmt.Errorf("the renewal came back after the lease had run out")
	}
	e.validUntil.Store(int64(sent + e.valid()))
	return nil
}

// release ends a lease this instance holds, so another takes over at once.
func (e *Elector) release(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), e.ttl/3)
	defer cancel()
	_, _ = conn.Exec(ctx, `UPDATE cluster_leader SET expires_at = now() WHERE id = 1 AND holder = $1 AND term = $2`, e.token, e.Term())
}

func (e *Elector) able() error {
	if e.Able == nil {
		return nil
	}
	return e.Able()
}

func (e *Elector) notify(leading bool) {
	if e.notified.Swap(leading) != leading && e.OnChange != nil {
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
