package replay

import (
	"kestrel/domain"
	"kestrel/events"
)

// PublishTickers puts each ticked symbol's ticker (price, bid, ask, 24 h
// volume) on the bus for the realtime hub, until ticks closes. ticks is a
// subscription taken before Start, so the first tick is not missed.
func (r *Replay) PublishTickers(ticks <-chan domain.Tick, bus *events.Bus) {
	for t := range ticks {
		if tk, err := r.Ticker(t.Symbol); err == nil {
			bus.Publish(events.TopicTick, tk, r.opt.Clock.Now())
		}
	}
}
