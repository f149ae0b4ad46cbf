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

// message is what travels on NATS: the publishing instance (so an
// instance skips its own events) and the event.
type message struct {
	Instance string          `json:"instance"`
	Time     time.Time       `json:"time"`
	Data     json.RawMessage `json:"data"`
}

// decoders give each bridged topic's value its Go type back: local
// subscribers (the WebSocket hub) read typed values, not JSON.
var decoders = map[string]func([]byte) (any, error){
	events.TopicTick:        decode[domain.Ticker],
	events.TopicTradeUpdate: decode[domain.TradeUpdate],
	events.TopicAlert:       decode[domain.Alert],
	events.TopicSignal:      decode[domain.Evaluation],
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
		var raw []byte
		if raw, err = json.Marshal(message{Instance: b.instance, Time: e.Time, Data: data}); err == nil {
			err = b.nc.Publish(b.prefix+e.Topic, raw)
		}
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
	var msg message
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		b.Failed.Add(1)
		return
	}
	if msg.Instance == b.instance {
		return // our own event, already delivered locally
	}
	v, err := dec(msg.Data)
	if err != nil {
		b.Failed.Add(1)
		slog.Warn("cluster event not understood", "topic", topic, "from", msg.Instance, "err", err, "component", "cluster")
		return
	}
	b.Received.Add(1)
	b.bus.Deliver(events.Event{Topic: topic, Data: v, Time: msg.Time})
}
