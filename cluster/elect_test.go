package cluster_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/cluster"
)

// TestElectionHandsOver: of two electors one leads; when it stops, the
// other takes over; they never lead at once.
func TestElectionHandsOver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := freshDatabase(t)
	var leaders atomic.Int32
	var overlap atomic.Bool
	lead := func(ctx context.Context) {
		if leaders.Add(1) > 1 {
			overlap.Store(true)
		}
		<-ctx.Done()
		leaders.Add(-1)
	}
	a, b := cluster.NewElector(url, 200*time.Millisecond), cluster.NewElector(url, 200*time.Millisecond)
	ctxA, stopA := context.WithCancel(ctx)
	doneA, doneB := make(chan struct{}), make(chan struct{})
	go func() { defer close(doneA); a.Run(ctxA, lead) }()
	waitFor(t, ctx, 5*time.Second, "the first elector to lead", a.Leading)

	ctxB, stopB := context.WithCancel(ctx)
	go func() { defer close(doneB); b.Run(ctxB, lead) }()
	time.Sleep(time.Second) // several of b's tries
	if b.Leading() || !a.Leading() {
		t.Fatalf("while a holds the lock: a leading %v, b leading %v", a.Leading(), b.Leading())
	}

	stopA()
	<-doneA
	if a.Leading() {
		t.Fatal("a still leads after it stopped")
	}
	waitFor(t, ctx, 5*time.Second, "the second elector to take over", b.Leading)
	stopB()
	<-doneB
	if overlap.Load() {
		t.Fatal("both electors led at once")
	}
	if n := leaders.Load(); n != 0 {
		t.Fatalf("%d lead functions still running after both stopped", n)
	}
}
