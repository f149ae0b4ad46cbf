// Package events is an in-process publish/subscribe bus by topic. Buffers are
// bounded: a subscriber that falls behind loses events (counted), it never
// slows the publisher or the other subscribers.
package events

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Topics published by the application.
const (
	TopicTick        = "tick"         // data: domain.Ticker
	TopicTradeUpdate = "trade_update" // data: TradeUpdate
	TopicAlert       = "alert"        // data: an alert value
	TopicSignal      = "signal"       // data: domain.Evaluation (a strategy's decision)
	TopicJob         = "job"          // data: domain.Job (a change of a job's status or progress)
)

// Event is one published message.
type Event struct {
	Topic string
	Data  any
	Time  time.Time
}

// Bus fans events out to subscribers.
type Bus struct {
	mu      sync.RWMutex
	subs    map[string]map[*sub]struct{}
	dropped atomic.Int64
	relay   atomic.Pointer[func(Event)]
}

type sub struct{ ch chan Event }

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[string]map[*sub]struct{}{}} }

// Publish delivers e to every subscriber of its topic that has room, and
// hands it to the relay when one is set.
func (b *Bus) Publish(topic string, data any, at time.Time) {
	e := Event{Topic: topic, Data: data, Time: at}
	b.Deliver(e)
	if r := b.relay.Load(); r != nil && *r != nil {
		(*r)(e)
	}
}

// SetRelay gives every event published here from now on to fn as well (a
// cluster bridge sends them to the other instances). fn must not block.
func (b *Bus) SetRelay(fn func(Event)) { b.relay.Store(&fn) }

// Deliver hands e to the local subscribers only: events that arrive from
// another instance come in here, so they are never relayed back out.
func (b *Bus) Deliver(e Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs[e.Topic] {
		select {
		case s.ch <- e:
		default:
			b.dropped.Add(1)
		}
	}
}

// Subscribe returns a channel of the topic's events with the given buffer,
// closed when ctx ends.
func (b *Bus) Subscribe(ctx context.Context, topic string, buffer int) <-chan Event {
	s := &sub{ch: make(chan Event, buffer)}
	b.mu.Lock()
	if b.subs[topic] == nil {
		b.subs[topic] = map[*sub]struct{}{}
	}
	b.subs[topic][s] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		delete(b.subs[topic], s)
		close(s.ch)
		b.mu.Unlock()
	}()
	return s.ch
}

// Dropped counts events lost to full subscriber buffers.
func (b *Bus) Dropped() int64 { return b.dropped.Load() }
