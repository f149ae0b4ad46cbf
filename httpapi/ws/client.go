package ws

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// client is one connection and its subscriptions.
type client struct {
	send     chan []byte
	mu       sync.RWMutex
	channels map[string]bool
	symbols  map[string]bool // empty: every symbol
	cancel   context.CancelFunc
	kickOnce sync.Once
	reason   string // why the server closed it; written once, before cancel
	who      Identity
}

func (c *client) wants(channel, symbol string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.channels[channel] {
		return false
	}
	return symbol == "" || len(c.symbols) == 0 || c.symbols[symbol]
}

// kick disconnects a client that cannot keep up or has gone.
func (c *client) kick() { c.end("closed: slow consumer or gone") }

// end disconnects the client, telling it why (the first reason wins).
func (c *client) end(reason string) {
	c.kickOnce.Do(func() {
		c.reason = reason
		c.cancel()
	})
}

// request is a client-to-server frame.
type request struct {
	Action   string   `json:"action"`
	Channels []string `json:"channels"`
	Symbols  []string `json:"symbols"`
}

// Identity is whose connection it is: the hub closes connections by session
// or user when sessions end (logout, disabling, password change).
type Identity struct {
	UserID    string
	SessionID string
	// Check reports whether the session is still valid; the hub calls it
	// periodically and closes the connection when it is not (expiry). Nil: never.
	Check func(ctx context.Context) error
}

// Credentials are what a connection presents: a single-use ticket in the
// URL (browsers cannot set headers on a WebSocket, and a session token must
// not travel in a URL) or a bearer token in the Authorization header
// (programs).
type Credentials struct {
	Ticket string
	Bearer string
}

// Authenticator checks a connection's credentials.
type Authenticator func(ctx context.Context, c Credentials) (Identity, error)

// reasonSessionEnded is the close reason when the client's sign-in ends.
const reasonSessionEnded = "session ended"

// reasonTooManyMessages is the close reason when a client sends faster than
// its message allowance.
const reasonTooManyMessages = "too many messages"

// Handler upgrades authenticated requests and serves them until they close.
func (h *Hub) Handler(authenticate Authenticator, validSymbol func(string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := Credentials{Ticket: r.URL.Query().Get("ticket")}
		if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
			c.Bearer = strings.TrimSpace(a[7:])
		}
		who, err := authenticate(r.Context(), c)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="kestrel"`) // as every 401 of the API
			refuse(w, http.StatusUnauthorized, "unauthorized", "Authentication required: a realtime ticket (POST /api/ws/ticket) in ?ticket= or a bearer token in the Authorization header")
			return
		}
		if !h.reserve(who.UserID) {
			refuse(w, http.StatusTooManyRequests, "too_many_requests", fmt.Sprintf("Too many realtime connections for this user (at most %d); close another tab or window", h.currentLimits().PerUser))
			return
		}
		conn, err := websocket.Accept(w, r, nil) // same-origin check stays on
		if err != nil {
			h.release(who.UserID)
			return
		}
		h.serve(r.Context(), conn, who, validSymbol)
	})
}

func refuse(w http.ResponseWriter, status int, code, msg string) {
	b, _ := json.Marshal(map[string]any{"success": false, "error": map[string]string{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

func (h *Hub) serve(parent context.Context, conn *websocket.Conn, who Identity, validSymbol func(string) bool) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	c := &client{send: make(chan []byte, h.sendQueue), channels: map[string]bool{}, symbols: map[string]bool{}, cancel: cancel, who: who}
	h.add(c)
	defer func() {
		h.release(who.UserID) // before remove: once the count drops, the place is free
		h.remove(c)
		cancel()
		conn.CloseNow()
	}()
	// The reader has its own context: cancelling a read aborts the connection
	// at once, and the close below must be able to send its reason first.
	rctx, rcancel := context.WithCancel(context.WithoutCancel(parent))
	defer rcancel()
	go h.readLoop(rctx, conn, c, validSymbol)
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	recheck := time.NewTicker(h.recheck)
	defer recheck.Stop()
	for {
		select {
		case <-ctx.Done():
			conn.Close(websocket.StatusPolicyViolation, c.reason)
			return
		case <-recheck.C:
			if who.Check != nil && who.Check(ctx) != nil {
				c.end(reasonSessionEnded)
			}
		case frame := <-c.send:
			// Not ctx: cancelling a write in progress aborts the connection
			// (the library's rule), and end() cancels ctx; a frame already on
			// its way (the last ack) would then cost the close frame and its
			// reason. The timeout still bounds a stuck write.
			wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			err := conn.Write(wctx, websocket.MessageText, frame)
			wcancel()
			if err != nil {
				return
			}
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				return
			}
		}
	}
}

func (h *Hub) readLoop(ctx context.Context, conn *websocket.Conn, c *client, validSymbol func(string) bool) {
	defer c.kick()
	conn.SetReadLimit(16 << 10)
	l := h.currentLimits()
	allowance := newBucket(l.MessageBurst, l.MessagesPerSecond, time.Now())
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			return
		}
		if !allowance.take(time.Now()) {
			c.end(reasonTooManyMessages)
			return
		}
		b := c.handle(raw, validSymbol)
		select {
		case c.send <- b:
		default:
			return
		}
	}
}

// handle answers one client message: an ack with the subscriptions, or an
// error naming what was wrong.
func (c *client) handle(raw []byte, validSymbol func(string) bool) []byte {
	var req request
	reply := map[string]any{"type": "ack"}
	if err := json.Unmarshal(raw, &req); err != nil {
		reply = map[string]any{"type": "error", "message": "Invalid JSON message"}
	} else if msg := c.apply(req, validSymbol); msg != "" {
		reply = map[string]any{"type": "error", "message": msg}
	} else {
		reply["action"] = req.Action
		reply["subscriptions"] = c.snapshot()
	}
	b, _ := json.Marshal(reply)
	return b
}

// apply changes subscriptions; it returns an error message for a bad request.
func (c *client) apply(req request, validSymbol func(string) bool) string {
	if req.Action != "subscribe" && req.Action != "unsubscribe" && req.Action != "ping" {
		return "Unknown action: " + req.Action + " (use subscribe, unsubscribe or ping)"
	}
	var chans []string
	for _, name := range req.Channels {
		ch, ok := channelAliases[name]
		if !ok {
			return "Unknown channel: " + name + " (use ticker, trades, alerts, signals, jobs or orderbook)"
		}
		chans = append(chans, ch)
	}
	for _, s := range req.Symbols {
		if !validSymbol(s) {
			return "Unknown symbol: " + s
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	on := req.Action == "subscribe"
	for _, ch := range chans {
		setOrDelete(c.channels, ch, on)
	}
	for _, s := range req.Symbols {
		setOrDelete(c.symbols, s, on)
	}
	return ""
}

func setOrDelete(m map[string]bool, k string, on bool) {
	if on {
		m[k] = true
	} else {
		delete(m, k)
	}
}

func (c *client) snapshot() map[string][]string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := map[string][]string{"channels": {}, "symbols": {}}
	for k := range c.channels {
		out["channels"] = append(out["channels"], k)
	}
	for k := range c.symbols {
		out["symbols"] = append(out["symbols"], k)
	}
	return out
}
