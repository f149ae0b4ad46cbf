// Package natsbus bridges the in-process event bus to NATS, so that every
// instance of a cluster sees what any of them publishes: ticks, trade
// updates, alerts and strategy signals go out on <cluster>.events.<topic>
// and come back in on the other instances' buses.
package natsbus

import (
	"encoding/json"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"kestrel/domain"
	"kestrel/events"
)

// An event travels on NATS as its value's JSON, with the publishing
// instance (so an instance skips its own events before decoding them) and
// the event's time in the message's headers.
const (
	hdrInstance = "Kestrel-Instance"
	hdrTime     = "Kestrel-Time"
	// hdrJournaled marks a trade update or an alert whose notification was
	// committed with it (their Journaled, which their JSON leaves out: the
	// realtime channels carry that JSON). A new leader that receives the
	// old leader's last updates must not queue their notifications again.
	hdrJournaled = "Kestrel-Journaled"
)

// decoders give each bridged topic's value its Go type back: local
// subscribers (the WebSocket hub) read typed values, not JSON.
var decoders = map[string]func([]byte) (any, error){
	events.TopicTick:        decode[domain.Ticker],
	events.TopicTradeUpdate: decode[domain.TradeUpdate],
	events.TopicAlert:       decode[domain.Alert],
	events.TopicSignal:      decode[domain.Evaluation],
	events.TopicJob:         decode[domain.Job],
}

func decode[T any](b []byte) (any, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// Bridge relays one bus to and from NATS.
type Bridge struct {
	nc       *nats.Conn
	bus      *events.Bus
	instance string
	prefix   string // "<cluster>.events."
	sub      *nats.Subscription
	// Received counts events delivered from other instances; Failed counts
	// events that could not be encoded, sent or decoded.
	Received, Failed atomic.Int64
}

// Start subscribes to the events of the other instances of the named
// cluster and relays this instance's local publishes until Close.
func Start(nc *nats.Conn, bus *events.Bus, cluster, instance string) (*Bridge, error) {
	b := &Bridge{nc: nc, bus: bus, instance: instance, prefix: cluster + ".events."}
	sub, err := nc.Subscribe(b.prefix+">", b.receive)
	if err != nil {
		return nil, err
	}
	// Ticks arrive several times a second from the leader: a generous
	// pending limit keeps a busy moment from dropping fills behind them.
	if err := sub.SetPendingLimits(65536, 64<<20); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	// The server knows the subscription once Flush returns: nothing
	// published after Start is missed.
	if err := nc.Flush(); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	b.sub = sub
	bus.SetRelay(b.send)
	return b, nil
}

// Close stops relaying in both directions.
func (b *Bridge) Close() {
	b.bus.SetRelay(nil)
	if b.sub != nil {
		b.sub.Unsubscribe()
	}
}

// send publishes a local event; nats buffers it, so the publisher never waits.
func (b *Bridge) send(e events.Event) {
	if _, ok := decoders[e.Topic]; !ok {
		return // a topic other instances could not decode stays local
	}
	data, err := json.Marshal(e.Data)
	if err == nil {
		h := nats.Header{hdrInstance: {b.instance}, hdrTime: {e.Time.Format(time.RFC3339Nano)}}
		if u, ok := e.Data.(domain.TradeUpdate); ok && u.Journaled {
			h.Set(hdrJournaled, "1")
		}
		if a, ok := e.Data.(domain.Alert); ok && a.Journaled {
			h.Set(hdrJournaled, "1")
		}
		if j, ok := e.Data.(domain.Job); ok && j.Journaled {
			h.Set(hdrJournaled, "1")
		}
		err = b.nc.PublishMsg(&nats.Msg{Subject: b.prefix + e.Topic, Header: h, Data: data})
	}
	if err != nil {
		b.Failed.Add(1)
		slog.Warn("event not sent to the cluster", "topic", e.Topic, "err", err, "component", "cluster")
	}
}

func (b *Bridge) receive(m *nats.Msg) {
	topic := strings.TrimPrefix(m.Subject, b.prefix)
	dec, ok := decoders[topic]
	if !ok {
		return
	}
	from := m.Header.Get(hdrInstance)
	if from == b.instance {
		return // our own event, already delivered locally
	}
	at, err := time.Parse(time.RFC3339Nano, m.Header.Get(hdrTime))
	if err != nil {
		b.Failed.Add(1)
		slog.Warn("cluster event without its time", "topic", topic, "from", from, "err", err, "component", "cluster")
		return
	}
	v, err := dec(m.Data)
	if err != nil {
		b.Failed.Add(1)
		slog.Warn("cluster event not understood", "topic", topic, "from", from, "err", err, "component", "cluster")
		return
	}
	if m.Header.Get(hdrJournaled) == "1" {
		switch x := v.(type) {
		case domain.TradeUpdate:
			x.Journaled = true
			v = x
		case domain.Alert:
			x.Journaled = true
			v = x
		case domain.Job:
			x.Journaled = true
			v = x
		}
	}
	b.Received.Add(1)
	b.bus.Deliver(events.Event{Topic: topic, Data: v, Time: at})
}
