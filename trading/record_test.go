package trading_test

import (
	"context"
	"testing"
	"time"
)

func TestRecordEveryAppendsUntilCancelled(t *testing.T) {
	d := newDesk(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.svc.RecordEvery(ctx, time.Millisecond) }()
	var n int
	for i := 0; i < 200 && n < 3; i++ {
		time.Sleep(5 * time.Millisecond)
		pts, err := d.store.PortfolioPoints(context.Background(), d.clk.t.Add(-time.Hour), d.clk.t.Add(time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		n = len(pts)
	}
	cancel()
	<-done
	if n < 3 {
		t.Fatalf("recorded %d points, want at least 3", n)
	}
	pts, _ := d.store.PortfolioPoints(context.Background(), d.clk.t.Add(-time.Hour), d.clk.t.Add(time.Hour), 100)
	if got, want := pts[0].Value.String(), "100000"; got != want {
		t.Errorf("recorded value = %s, want %s (the starting cash)", got, want)
	}
}
