package cluster_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/cluster"
	"kestrel/store/postgres"
)

// leaseDatabase is a fresh, migrated database (the lease's table).
func leaseDatabase(t *testing.T) string {
	t.Helper()
	url := freshDatabase(t)
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return url
}

// TestElectionHandsOver: of two electors one leads; when it stops, the
// other takes over; they never lead at once.
func TestElectionHandsOver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := leaseDatabase(t)
	var leaders atomic.Int32
	var overlap atomic.Bool
	lead := func(ctx context.Context) {
		if leaders.Add(1) > 1 {
			overlap.Store(true)
		}
		<-ctx.Done()
		leaders.Add(-1)
	}
	a, b := cluster.NewElector(url, "a", 600*time.Millisecond), cluster.NewElector(url, "b", 600*time.Millisecond)
	ctxA, stopA := context.WithCancel(ctx)
	doneA, doneB := make(chan struct{}), make(chan struct{})
	go func() { defer close(doneA); a.Run(ctxA, lead) }()
	waitFor(t, ctx, 5*time.Second, "the first elector to lead", a.Leading)

	ctxB, stopB := context.WithCancel(ctx)
	go func() { defer close(doneB); b.Run(ctxB, lead) }()
	time.Sleep(time.Second) // several of b's tries and a's renewals
	if b.Leading() || !a.Leading() {
		t.Fatalf("while a holds the lease: a leading %v, b leading %v", a.Leading(), b.Leading())
	}

	stopA()
	<-doneA
	if a.Leading() {
		t.Fatal("a still leads after it stopped")
	}
	waitFor(t, ctx, 5*time.Second, "the second elector to take over", b.Leading)
	if b.Term() <= a.Term() {
		t.Errorf("b leads in term %d after a's term %d", b.Term(), a.Term())
	}
	stopB()
	<-doneB
	if overlap.Load() {
		t.Fatal("both electors led at once")
	}
	if n := leaders.Load(); n != 0 {
		t.Fatalf("%d lead functions still running after both stopped", n)
	}
}

// TestCutOffLeaderIsReplaced: the leader's database session stops passing
// bytes (a frozen or partitioned leader: the connection stays open, so the
// database frees nothing). The leader stops counting itself the leader on
// its own clock and its engine is stopped; the other elector takes the
// lease once it has expired, in a later term; at no moment do both count
// themselves the leader.
func TestCutOffLeaderIsReplaced(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dbURL := leaseDatabase(t)
	proxy := newPausableProxy(t, dbURL)
	const ttl = 600 * time.Millisecond
	a, b := cluster.NewElector(proxy.url, "a", ttl), cluster.NewElector(dbURL, "b", ttl)
	aStopped := make(chan struct{})
	var aLeads atomic.Int32
	go a.Run(ctx, func(ctx context.Context) {
		if aLeads.Add(1) == 1 {
			<-ctx.Done()
			close(aStopped)
			return
		}
		<-ctx.Done()
	})
	waitFor(t, ctx, 5*time.Second, "a to lead", a.Leading)
	go b.Run(ctx, func(ctx context.Context) { <-ctx.Done() })

	var overlap atomic.Bool
	watching, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-watching:
				return
			default:
			}
			if a.Leading() && b.Leading() {
				overlap.Store(true)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	first := a.Term()
	proxy.pause()
	waitFor(t, ctx, 10*time.Second, "b to take over from the cut-off a", b.Leading)
	select {
	case <-aStopped:
	case <-time.After(10 * time.Second):
		t.Fatal("a's engine was never stopped after it lost the lease")
	}
	close(watching)
	<-watched
	if overlap.Load() {
		t.Fatal("a and b both counted themselves the leader at one moment")
	}
	if b.Term() <= first {
		t.Errorf("b leads in term %d, not after a's term %d", b.Term(), first)
	}
	if a.Leading() {
		t.Error("the cut-off a still counts itself the leader")
	}
}

// TestLeaderThatCannotWorkHandsOver: a leader whose Able check fails (in
// the app: NATS has not answered for NATSGrace) steps down and ends its
// lease, so the other elector takes over at once, without waiting for the
// lease to expire; while it cannot work it never takes the lease back.
func TestLeaderThatCannotWorkHandsOver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := leaseDatabase(t)
	const ttl = 3 * time.Second // the real lease: the handover must not wait for it to expire
	a, b := cluster.NewElector(url, "a", ttl), cluster.NewElector(url, "b", ttl)
	var aCut atomic.Bool
	a.Able = func() error {
		if aCut.Load() {
			return errors.New("cut off")
		}
		return nil
	}
	aStopped := make(chan struct{})
	var once sync.Once
	go a.Run(ctx, func(ctx context.Context) { <-ctx.Done(); once.Do(func() { close(aStopped) }) })
	waitFor(t, ctx, 5*time.Second, "a to lead", a.Leading)
	ctxB, stopB := context.WithCancel(ctx)
	doneB := make(chan struct{})
	go func() { defer close(doneB); b.Run(ctxB, func(ctx context.Context) { <-ctx.Done() }) }()
	time.Sleep(time.Second)
	if b.Leading() {
		t.Fatal("b leads while a holds the lease")
	}
	first := a.Term()
	aCut.Store(true)
	cut := time.Now()
	waitFor(t, ctx, 10*time.Second, "b to take over from a, which cannot work", b.Leading)
	took := time.Since(cut)
	select {
	case <-aStopped:
	default:
		t.Fatal("b leads but a's engine is still running")
	}
	// Handed over: a renewal interval (ttl/3) to notice, a follower's try
	// (ttl/6) to take it; an expiry would take the whole lease (3 s).
	t.Logf("b took over %s after a could no longer work", took.Round(time.Millisecond))
	if took >= ttl {
		t.Errorf("b took over %s after a could no longer work: a waited for the lease to expire instead of handing it over", took)
	}
	if b.Term() <= first {
		t.Errorf("b leads in term %d, not after a's term %d", b.Term(), first)
	}
	// b stops and ends its lease; a, still unable, must not take it; able
	// again, it does.
	stopB()
	<-doneB
	time.Sleep(2 * time.Second)
	if a.Leading() {
		t.Error("a took the lease again though it still cannot work")
	}
	aCut.Store(false)
	waitFor(t, ctx, 5*time.Second, "a, able again, to take the free lease", a.Leading)
}

// pausableProxy relays TCP to a server until paused; then it holds the
// connections open and passes nothing (what was sent waits), as a frozen
// or cut-off host does, until resumed.
type pausableProxy struct {
	url, addr string
	mu        sync.Mutex
	cond      *sync.Cond
	paused    bool
	down      bool              // setDown: connections reset, new ones closed at once
	conns     map[net.Conn]bool // open, both sides
}

func newPausableProxy(t *testing.T, dbURL string) *pausableProxy {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	p := newTCPProxy(t, u.Host)
	u.Host = p.addr
	q := u.Query()
	q.Set("sslmode", "disable")
	u.RawQuery = q.Encode()
	p.url = u.String()
	return p
}

// newTCPProxy relays connections to target (host:port) from a loopback
// address of its own (addr).
func newTCPProxy(t *testing.T, target string) *pausableProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p := &pausableProxy{addr: l.Addr().String(), conns: map[net.Conn]bool{}}
	p.cond = sync.NewCond(&p.mu)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[s] = true, true
			p.mu.Unlock()
			t.Cleanup(func() { c.Close(); s.Close() })
			go p.pipe(c, s)
			go p.pipe(s, c)
		}
	}()
	return p
}

func (p *pausableProxy) pause() { p.mu.Lock(); p.paused = true; p.mu.Unlock() }

// setDown makes the server unreachable (true: every connection reset, new
// ones closed at once) or reachable again.
func (p *pausableProxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
			delete(p.conns, c)
		}
	}
}

func (p *pausableProxy) resume() { p.mu.Lock(); p.paused = false; p.cond.Broadcast(); p.mu.Unlock() }

func (p *pausableProxy) pipe(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			return
		}
		p.mu.Lock()
		for p.paused { // held: the peer waits, the connection stays open
			p.cond.Wait()
		}
		p.mu.Unlock()
		if _, err := dst.Write(buf[:n]); err != nil {
			return
		}
	}
}
