package sandbox_test

import (
	"context"
	"testing"
	"time"
)

// The matching loop beats while it runs, with or without ticks, and stops
// beating when it ends: the status screen tells a stuck engine from a quiet market.
func TestRunBeatsWhileAlive(t *testing.T) {
	e := newEnv(t)
	if !e.sb.LastBeat().IsZero() {
		t.Fatal("a heartbeat before Run started")
	}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() { defer close(done); e.sb.Run(ctx, nil, nil) }() // no feed at all
	for i := 0; i < 100 && e.sb.LastBeat().IsZero(); i++ {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if got, want := e.sb.LastBeat(), e.opt.Clock.Now(); !got.Equal(want) {
		t.Fatalf("LastBeat = %v, want the clock's %v", got, want)
	}
}

func TestHealthReportsTheFeed(t *testing.T) {
	e := newEnv(t)
	if h := e.sb.Health(); !h.LastQuote.IsZero() || h.LastError != "" {
		t.Fatalf("before any tick: %+v", h)
	}
	e.tick("BTC-USD", "50100")
	if h := e.sb.Health(); !h.LastQuote.Equal(e.opt.Clock.Now()) {
		t.Fatalf("after a tick LastQuote = %v, want %v", h.LastQuote, e.opt.Clock.Now())
	}
}
