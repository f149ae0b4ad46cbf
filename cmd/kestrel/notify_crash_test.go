package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"kestrel/loadgen"
)

// hookLog is a loopback webhook receiver that answers 204 and keeps, per
// order id, the webhook-ids it received.
type hookLog struct {
	mu    sync.Mutex
	calls int
	ids   map[string]map[string]bool // order id -> webhook-ids
}

func (h *hookLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m struct {
		Type    string `json:"type"`
		OrderID string `json:"order_id"`
	}
	_ = json.Unmarshal(body, &m)
	h.mu.Lock()
	h.calls++
	if m.Type == "order.filled" {
		if h.ids[m.OrderID] == nil {
			h.ids[m.OrderID] = map[string]bool{}
		}
		h.ids[m.OrderID][r.Header.Get("webhook-id")] = true
	}
	h.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (h *hookLog) messages(order string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.ids[order])
}

// TestKillNineAfterAFillStillNotifiesOnce kills the real server with
// SIGKILL the moment a market order's acknowledgment arrives, before its
// notification can have been sent; after the restart the receiver gets the
// fill's message, one message (one webhook-id) per order.
func TestKillNineAfterAFillStillNotifiesOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server four times")
	}
	ctx := context.Background()
	hooks := &hookLog{ids: map[string]map[string]bool{}}
	rcv := httptest.NewServer(hooks)
	defer rcv.Close()
	args := []string{"--data-dir", t.TempDir()}
	srv := startServer(t, args...)
	c := loadgen.NewClient(srv.url, 2)
	if err := c.SignIn(ctx, "notify@example.com", "notify-test-pass", "Notify", true); err != nil {
		t.Fatal(err)
	}
	// The receiver is on loopback, which an operator must allow first.
	if _, err := c.Do(ctx, "PUT", "/api/settings", map[string]any{"system": map[string]any{"notifications": map[string]any{"allowLoopbackTargets": true}}}, nil); err != nil {
		t.Fatal(err)
	}
	var ch struct{ ID string }
	if _, err := c.Do(ctx, "POST", "/api/notifications/channels", map[string]string{"name": "hook", "url": rcv.URL + "/hook"}, &ch); err != nil {
		t.Fatal(err)
	}
	routing := map[string]any{"routes": map[string][]string{"order.filled": {ch.ID}}, "min_severity": "low", "aggregate": false, "aggregate_seconds": 0}
	if _, err := c.Do(ctx, "PUT", "/api/notifications/routing", routing, nil); err != nil {
		t.Fatal(err)
	}
	var orders []string
	for k := 0; k < 3; k++ {
		var placed struct {
			Order struct{ ID, Status string }
		}
		var err error
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			// The first request after a start may meet a market not priced yet.
			if _, err = c.Do(ctx, "POST", "/api/trading/execute", map[string]any{"symbol": "BTC-USD", "action": "BUY", "quantity": 0.001}, &placed); err == nil ||
				time.Now().After(deadline) {
				break
			}
		}
		if err != nil || placed.Order.Status != "filled" {
			t.Fatalf("market buy %d: %+v, %v", k, placed, err)
		}
		if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil { // at once: the notification is at best on its way
			t.Fatal(err)
		}
		srv.cmd.Wait()
		orders = append(orders, placed.Order.ID)
		srv = startServer(t, args...)
		c.Base = srv.url
		if err := c.SignIn(ctx, "notify@example.com", "notify-test-pass", "", false); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := 0
		for _, o := range orders {
			if hooks.messages(o) > 0 {
				got++
			}
		}
		if got == len(orders) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restarts %d of %d fills were notified", got, len(orders))
		}
	}
	time.Sleep(500 * time.Millisecond) // a second message, if any, would come now
	for _, o := range orders {
		if n := hooks.messages(o); n != 1 {
			t.Fatalf("order %s: %d messages (webhook-ids), want 1", o, n)
		}
	}
	hooks.mu.Lock()
	t.Logf("%d fills, %d webhook requests received (a repeat keeps its webhook-id)", len(orders), hooks.calls)
	hooks.mu.Unlock()
}
