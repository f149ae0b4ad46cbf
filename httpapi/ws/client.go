package ws

import (
	"context"
	"encoding/json"
	"net/http"
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

// Authenticator checks the token a browser passes as ?token= (browsers cannot
// set headers on a WebSocket) or in an Authorization header.
type Authenticator func(ctx context.Context, token string) (Identity, error)

// reasonSessionEnded is the close reason when the client's sign-in ends.
const reasonSessionEnded = "session ended"

// Handler upgrades authenticated requests and serves them until they close.
func (h *Hub) Handler(authenticate Authenticator, validSymbol func(string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := r.URL.Query().Get("token")
		if a := r.Header.Get("Authorization"); token == "" && len(a) > 7 {
			token = a[7:]
		}
		who, err := authenticate(r.Context(), token)
		if err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"success":false,"error":{"code":"unauthorized","message":"Authentication required"}}`))
			return
		}
		conn, err := websocket.Accept(w, r, nil) // same-origin check stays on
		if err != nil {
			return
		}
		h.serve(r.Context(), conn, who, validSymbol)
	})
}

func (h *Hub) serve(parent context.Context, conn *websocket.Conn, who Identity, validSymbol func(string) bool) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	c := &client{send: make(chan []byte, h.sendQueue), channels: map[string]bool{}, symbols: map[string]bool{}, cancel: cancel, who: who}
	h.add(c)
	defer func() {
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
			wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
			err := conn.Write(wctx, websocket.MessageText, frame)
			wcancel()
			if err != nil {
				return
			}
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
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
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
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
			return "Unknown channel: " + name + " (use ticker, trades, alerts or signals)"
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
