package ws

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// sessions is a fake sign-in table: token -> identity, and which have expired.
type sessions struct {
	mu      sync.Mutex
	expired map[string]bool
}

var identities = map[string]Identity{
	"ann-phone":  {UserID: "ann", SessionID: "s1"},
	"ann-laptop": {UserID: "ann", SessionID: "s2"},
	"bob":        {UserID: "bob", SessionID: "s3"},
}

func (s *sessions) authenticate(_ context.Context, c Credentials) (Identity, error) {
	token := c.Ticket
	who, ok := identities[token]
	if !ok {
		return Identity{}, errors.New("no")
	}
	who.Check = func(context.Context) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.expired[token] {
			return errors.New("expired")
		}
		return nil
	}
	return who, nil
}

func sessionServer(t *testing.T, h *Hub, s *sessions) string {
	srv := httptest.NewServer(h.Handler(s.authenticate, func(string) bool { return true }))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "?ticket="
}

// closedWith waits for c to be closed by the server and returns the close reason.
func closedWith(t *testing.T, c *websocket.Conn) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		t.Fatalf("read = %v, want a close frame", err)
	}
	return ce.Reason
}

func TestCloseSessionsByUserKeepingOne(t *testing.T) {
	h := NewHub(8, []string{"BTC-USD"})
	url := sessionServer(t, h, &sessions{})
	phone, laptop, bob := dial(t, url+"ann-phone"), dial(t, url+"ann-laptop"), dial(t, url+"bob")
	waitClients(t, h, 3)

	n := h.CloseSessions(func(who Identity) bool { return who.UserID == "ann" && who.SessionID != "s2" })
	if n != 1 {
		t.Fatalf("closed %d, want 1", n)
	}
	if got := closedWith(t, phone); got != "session ended" {
		t.Fatalf("close reason = %q", got)
	}
	waitClients(t, h, 2)
	for _, c := range []*websocket.Conn{laptop, bob} {
		if ack := send(t, c, `{"action":"ping"}`); ack["type"] != "ack" {
			t.Fatalf("a kept connection: %v", ack)
		}
	}
}

func TestExpiredSessionIsClosedByThePeriodicCheck(t *testing.T) {
	h := NewHub(8, []string{"BTC-USD"})
	h.recheck = 20 * time.Millisecond
	s := &sessions{expired: map[string]bool{}}
	url := sessionServer(t, h, s)
	ann, bob := dial(t, url+"ann-phone"), dial(t, url+"bob")
	waitClients(t, h, 2)
	s.mu.Lock()
	s.expired["ann-phone"] = true
	s.mu.Unlock()
	if got := closedWith(t, ann); got != "session ended" {
		t.Fatalf("close reason = %q", got)
	}
	if ack := send(t, bob, `{"action":"ping"}`); ack["type"] != "ack" {
		t.Fatalf("a live session: %v", ack)
	}
}
