// Package ws is the realtime endpoint /api/ws: clients subscribe to channels
// (ticker, trades, alerts, signals, jobs, orderbook) and symbols, and receive JSON frames
// {type, channel, data, timestamp}. Each frame is encoded once and fanned out;
// a client whose send buffer is full is disconnected, never waited on.
package ws

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"kestrel/events"
)

// Channels a client can subscribe to, and the message type each carries.
const (
	ChannelTicker  = "ticker"  // market_data
	ChannelTrades  = "trades"  // trade_update
	ChannelAlerts  = "alerts"  // system_alert
	ChannelSignals = "signals" // strategy_signal
	ChannelJobs    = "jobs"    // job_update
	// ChannelOrderBook carries Coinbase's level2 book of a symbol (depth
	// ladder), throttled, while the market is live.
	ChannelOrderBook = "orderbook" // orderbook
)

var channelAliases = map[string]string{
	ChannelTicker:    ChannelTicker,
	ChannelTrades:    ChannelTrades,
	ChannelAlerts:    ChannelAlerts,
	ChannelSignals:   ChannelSignals,
	ChannelJobs:      ChannelJobs,
	ChannelOrderBook: ChannelOrderBook,
	"level2":         ChannelOrderBook,
	"matches":        ChannelTrades, // the spec's default pair is "ticker and matches"
}

// Message is one server-to-client frame.
type Message struct {
	Type      string    `json:"type"`
	Channel   string    `json:"channel"`
	Data      any       `json:"data"`
	Timestamp time.Time `json:"timestamp"`
}

// Hub tracks connected clients and routes frames to their subscriptions.
type Hub struct {
	mu        sync.RWMutex
	clients   map[*client]struct{}
	feed      map[string]map[string]bool // symbol -> channels published
	sendQueue int
	recheck   time.Duration // how often each client's session is checked
	dropped   atomic.Int64  // clients disconnected for being slow
	sent      atomic.Int64
	runs      atomic.Int32   // Run loops alive (a restart may overlap two briefly)
	limits    Limits         // guarded by mu
	perUser   map[string]int // connections held (and being opened) per user; guarded by mu
}

// NewHub returns a hub whose clients buffer up to sendQueue frames, publishing
// ticker and trade frames for symbols.
func NewHub(sendQueue int, symbols []string) *Hub {
	if sendQueue <= 0 {
		sendQueue = 256
	}
	h := &Hub{clients: map[*client]struct{}{}, sendQueue: sendQueue, recheck: 30 * time.Second,
		limits: DefaultLimits, perUser: map[string]int{}}
	h.SetFeed(symbols, []string{ChannelTicker, ChannelTrades}, true)
	return h
}

// Stats is a snapshot for the status endpoint and metrics.
type Stats struct {
	Clients        int   `json:"clients"`
	FramesSent     int64 `json:"frames_sent"`
	SlowDisconnect int64 `json:"slow_clients_dropped"`
	// Running is whether Run is forwarding bus events; without it clients
	// stay connected but receive nothing.
	Running bool `json:"running"`
}

// Stats reports the hub's counters.
func (h *Hub) Stats() Stats {
	h.mu.RLock()
	n := len(h.clients)
	h.mu.RUnlock()
	return Stats{Clients: n, FramesSent: h.sent.Load(), SlowDisconnect: h.dropped.Load(), Running: h.runs.Load() > 0}
}

// Run forwards bus events to clients until ctx ends.
func (h *Hub) Run(ctx context.Context, bus *events.Bus) {
	h.runs.Add(1)
	defer h.runs.Add(-1)
	ticks := bus.Subscribe(ctx, events.TopicTick, 1024)
	trades := bus.Subscribe(ctx, events.TopicTradeUpdate, 1024)
	alerts := bus.Subscribe(ctx, events.TopicAlert, 256)
	signals := bus.Subscribe(ctx, events.TopicSignal, 256)
	jobs := bus.Subscribe(ctx, events.TopicJob, 256)
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-ticks:
			if !ok {
				return
			}
			h.Broadcast(ChannelTicker, "market_data", symbolOf(e.Data), e.Data, e.Time)
		case e, ok := <-trades:
			if !ok {
				return
			}
			h.Broadcast(ChannelTrades, "trade_update", symbolOf(e.Data), e.Data, e.Time)
		case e, ok := <-alerts:
			if !ok {
				return
			}
			h.Broadcast(ChannelAlerts, "system_alert", "", e.Data, e.Time)
		case e, ok := <-signals:
			if !ok {
				return
			}
			h.Broadcast(ChannelSignals, "strategy_signal", symbolOf(e.Data), e.Data, e.Time)
		case e, ok := <-jobs:
			if !ok {
				return
			}
			h.Broadcast(ChannelJobs, "job_update", "", e.Data, e.Time)
		}
	}
}

// Symboler is implemented by payloads that belong to one symbol.
type Symboler interface{ SymbolName() string }

func symbolOf(v any) string {
	if s, ok := v.(Symboler); ok {
		return s.SymbolName()
	}
	return ""
}

// Broadcast encodes one frame and queues it for every client subscribed to
// channel (and to symbol, when the client filters by symbols).
func (h *Hub) Broadcast(channel, typ, symbol string, data any, at time.Time) {
	h.mu.RLock()
	if !h.published(channel, symbol) {
		h.mu.RUnlock()
		return
	}
	// The frame is encoded once, for the first client that wants it: with
	// none (an instance nobody watches) the event costs no encoding.
	var frame []byte
	var slow []*client
	for c := range h.clients {
		if !c.wants(channel, symbol) {
			continue
		}
		if frame == nil {
			var err error
			if frame, err = json.Marshal(Message{Type: typ, Channel: channel, Data: data, Timestamp: at}); err != nil {
				break
			}
		}
		select {
		case c.send <- frame:
			h.sent.Add(1)
		default:
			slow = append(slow, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range slow {
		h.dropped.Add(1)
		c.kick()
	}
}

// CloseSessions closes every connection whose identity matches (its session
// or user has ended) and returns how many it closed.
func (h *Hub) CloseSessions(match func(Identity) bool) int {
	h.mu.RLock()
	var gone []*client
	for c := range h.clients {
		if match(c.who) {
			gone = append(gone, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range gone {
		c.end(reasonSessionEnded)
	}
	return len(gone)
}

func (h *Hub) add(c *client) {
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
}
