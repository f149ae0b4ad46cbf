package replay

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/events"
)

func TestPublishTickersPutsTickersOnTheBus(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r, _ := newReplay(t, start, 1)
	bus := events.NewBus()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := bus.Subscribe(ctx, events.TopicTick, 16)
	ticks := make(chan domain.Tick, 1)
	ticks <- domain.Tick{Symbol: "ETH-USD", Time: start}
	close(ticks)
	r.PublishTickers(ticks, bus)
	e := <-got
	tk, ok := e.Data.(domain.Ticker)
	if !ok || tk.Symbol != "ETH-USD" || !tk.Bid.LessThan(tk.Ask) || !e.Time.Equal(start) {
		t.Fatalf("published %+v at %v, want the ETH-USD ticker at %v", e.Data, e.Time, start)
	}
}
