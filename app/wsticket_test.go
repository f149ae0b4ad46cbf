package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"kestrel/app"
	"kestrel/store/postgres/pgtest"
)

func (s *server) ticket(token string) string {
	s.t.Helper()
	r := s.do("POST", "/api/ws/ticket", token, "")
	var out struct {
		Ticket    string    `json:"ticket"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	s.into(r, &out)
	if r.Status != 200 || out.Ticket == "" {
		s.t.Fatalf("ticket: %+v", r)
	}
	if left := time.Until(out.ExpiresAt); left <= 0 || left > 31*time.Second {
		s.t.Fatalf("ticket expires in %v, want about 30 s", left)
	}
	return out.Ticket
}

func (s *server) dialWS(query string) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return websocket.Dial(ctx, strings.Replace(s.url, "http", "ws", 1)+"/api/ws"+query, nil)
}

// The browser's socket opens with a single-use ticket, never the session
// token: the token in the URL is refused, a ticket works once, and a
// ticket of a session that has ended opens nothing.
func TestRealtimeTicket(t *testing.T) {
	s := start(t, t.TempDir())
	_, trader := s.accounts()

	if _, res, err := s.dialWS("?token=" + trader); err == nil || res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("session token in the URL: %v, %+v; want 401", err, res)
	}
	if r := s.do("POST", "/api/ws/ticket", "", ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("ticket without a session: %+v", r)
	}

	tk := s.ticket(trader)
	c, _, err := s.dialWS("?ticket=" + tk)
	if err != nil {
		t.Fatalf("dial with a ticket: %v", err)
	}
	defer c.CloseNow()
	if !stillOpen(c) {
		t.Fatal("ticket connection does not answer")
	}
	if _, res, err := s.dialWS("?ticket=" + tk); err == nil || res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("ticket used twice: %v, %+v; want 401", err, res)
	}

	// The connection belongs to the session: logging out closes it, and a
	// ticket issued before the logout is void.
	unused := s.ticket(trader)
	if r := s.do("POST", "/api/auth/logout", trader, ""); r.Status != 200 {
		t.Fatalf("logout: %+v", r)
	}
	if !closedByServer(c) {
		t.Fatal("logout left the ticket connection open")
	}
	if _, res, err := s.dialWS("?ticket=" + unused); err == nil || res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("ticket of an ended session: %v, %+v; want 401", err, res)
	}
}

// Tickets live in the database: one asked for on one server opens the
// socket on another server of the same database (the instances of a
// cluster behind a load balancer), and only once.
func TestRealtimeTicketAcrossServers(t *testing.T) {
	dbURL := pgtest.URL(t)
	edit := func(c *app.Config) { c.DatabaseURL = dbURL }
	a := startWith(t, t.TempDir(), edit)
	_, trader := a.accounts()
	b := startWith(t, t.TempDir(), edit)

	tk := a.ticket(trader)
	c, _, err := b.dialWS("?ticket=" + tk)
	if err != nil {
		t.Fatalf("ticket from one server on the other: %v", err)
	}
	defer c.CloseNow()
	if !stillOpen(c) {
		t.Fatal("connection does not answer")
	}
	if _, res, err := a.dialWS("?ticket=" + tk); err == nil || res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the same ticket on the first server: %v, %+v; want 401", err, res)
	}
}
