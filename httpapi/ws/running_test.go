package ws

import (
	"context"
	"testing"
	"time"

	"kestrel/events"
)

func TestStatsSaysWhetherRunIsAlive(t *testing.T) {
	h := NewHub(8, []string{"BTC-USD"})
	if h.Stats().Running {
		t.Fatal("running before Run")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Run(ctx, events.NewBus()) }()
	for i := 0; i < 100 && !h.Stats().Running; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if !h.Stats().Running {
		t.Fatal("not running while Run forwards events")
	}
	cancel()
	<-done
	if h.Stats().Running {
		t.Fatal("still running after Run returned")
	}
}
