package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Hook is a loopback webhook receiver subscribed to the account's fills: it
// measures each message's delay from its event (the message's timestamp,
// the fill's time) to its arrival here, the notification path end to end
// (commit, routing, outbox, delivery).
type Hook struct {
	srv  *http.Server
	mu   sync.Mutex
	seen map[string]bool
	lat  Stats
	last time.Time
}

// StartHook starts the receiver on a free loopback port and, through c,
// adds a webhook channel to it and routes order.filled there without
// aggregation (each fill its own message).
func StartHook(ctx context.Context, c *Client) (*Hook, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &Hook{seen: map[string]bool{}}
	h.srv = &http.Server{Handler: http.HandlerFunc(h.serve), ReadHeaderTimeout: 5 * time.Second}
	go h.srv.Serve(ln)
	var ch struct {
		ID string `json:"id"`
	}
	url := "http://" + ln.Addr().String() + "/hook"
	if _, err := c.Do(ctx, http.MethodPost, "/api/notifications/channels", map[string]string{"name": "kestrel-load", "url": url}, &ch); err != nil {
		h.srv.Close()
		return nil, fmt.Errorf("webhook channel: %w", err)
	}
	routing := map[string]any{"routes": map[string][]string{"order.filled": {ch.ID}}, "min_severity": "low", "aggregate": false, "aggregate_seconds": 0}
	if _, err := c.Do(ctx, http.MethodPut, "/api/notifications/routing", routing, nil); err != nil {
		h.srv.Close()
		return nil, fmt.Errorf("webhook routing: %w", err)
	}
	return h, nil
}

func (h *Hook) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	var m struct {
		Timestamp time.Time `json:"timestamp"`
	}
	_ = json.Unmarshal(body, &m)
	h.mu.Lock()
	if id := r.Header.Get("webhook-id"); !h.seen[id] && !m.Timestamp.IsZero() {
		h.seen[id] = true
		h.lat.OK++
		h.lat.lat = append(h.lat.lat, at.Sub(m.Timestamp))
	}
	h.last = at
	h.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// HookResult is what the receiver measured.
type HookResult struct {
	Messages      int
	P50, P99, Max time.Duration
}

// Drain waits until no message has arrived for quiet (at most limit) and
// stops the receiver.
func (h *Hook) Drain(quiet, limit time.Duration) HookResult {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		idle := !h.last.IsZero() && time.Since(h.last) > quiet
		h.mu.Unlock()
		if idle {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	h.srv.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	sort.Slice(h.lat.lat, func(i, j int) bool { return h.lat.lat[i] < h.lat.lat[j] })
	return HookResult{Messages: len(h.seen), P50: h.lat.Percentile(0.50), P99: h.lat.Percentile(0.99), Max: h.lat.Max()}
}
