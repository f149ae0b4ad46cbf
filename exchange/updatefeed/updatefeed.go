// Package updatefeed is an exchange's lossless, in-order fan-out of trade
// updates to its receivers (domain.Exchange.Updates), shared by the
// sandbox and the Coinbase adapter.
package updatefeed

import (
	"context"
	"sync"

	"kestrel/domain"
)

// buffer is how many updates a slow receiver may lag behind before the
// exchange waits for it.
const buffer = 4096

// Feed delivers every update to every receiver, in order. A receiver that
// stops reading holds the sender up, so receivers must keep reading until
// their ctx ends.
type Feed struct {
	mu   sync.Mutex
	subs map[chan domain.TradeUpdate]<-chan struct{}
}

// Subscribe returns a channel of the updates told from now on; it closes
// once ctx ends.
func (f *Feed) Subscribe(ctx context.Context) <-chan domain.TradeUpdate {
	ch := make(chan domain.TradeUpdate, buffer)
	f.mu.Lock()
	if f.subs == nil {
		f.subs = map[chan domain.TradeUpdate]<-chan struct{}{}
	}
	f.subs[ch] = ctx.Done()
	f.mu.Unlock()
	go func() {
		<-ctx.Done()
		f.mu.Lock()
		delete(f.subs, ch)
		close(ch)
		f.mu.Unlock()
	}()
	return ch
}

// Tell delivers ups, in order, to every receiver.
func (f *Feed) Tell(ups []domain.TradeUpdate) {
	if len(ups) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch, done := range f.subs {
		for _, u := range ups {
			select {
			case ch <- u:
			case <-done: // the receiver left; its channel closes once we let go
			}
		}
	}
}

// Receivers is how many receivers listen now.
func (f *Feed) Receivers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}
