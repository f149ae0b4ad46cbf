package app_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"kestrel/domain"
)

// socket opens a realtime connection with token and subscribes to alerts.
func (s *server) socket(token string) *websocket.Conn {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(s.url, "http", "ws", 1)+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`)); err != nil {
		s.t.Fatal(err)
	}
	if _, _, err := c.Read(ctx); err != nil { // the ack: the hub has registered it
		s.t.Fatal(err)
	}
	return c
}

// closedByServer reports whether the server closes c within 5 s. The close
// reason ("session ended") is checked in httpapi/ws; here the close frame can
// lose the race with the TCP close, so any server-side close counts.
func closedByServer(c *websocket.Conn) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, _, err := c.Read(ctx)
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Reason == "session ended"
		}
		if err != nil {
			return ctx.Err() == nil
		}
	}
}

// stillOpen reports whether c answers a ping message.
func stillOpen(c *websocket.Conn) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`)); err != nil {
		return false
	}
	_, b, err := c.Read(ctx)
	return err == nil && strings.Contains(string(b), `"ack"`)
}

func TestEndedSessionsCloseTheirSockets(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	other := s.login("t@example.com", "trader-pass")
	a, b := s.socket(trader), s.socket(other)

	if r := s.do("POST", "/api/auth/logout", trader, ""); r.Status != 200 {
		t.Fatalf("logout: %+v", r)
	}
	if !closedByServer(a) {
		t.Fatal("after logout the socket: still open")
	}
	if !stillOpen(b) {
		t.Fatal("the user's other session's socket closed too")
	}

	var users struct{ Users []domain.User }
	s.into(s.do("GET", "/api/users", op, ""), &users)
	id := users.Users[1].ID
	if r := s.do("PATCH", "/api/users/"+id, op, `{"disabled":true}`); r.Status != 200 {
		t.Fatalf("disable: %+v", r)
	}
	if !closedByServer(b) {
		t.Fatal("after disabling the socket: still open")
	}
}

func TestPasswordChangeKeepsThisSessionsSocket(t *testing.T) {
	s := start(t, t.TempDir())
	_, here := s.accounts()
	there := s.login("t@example.com", "trader-pass")
	mine, theirs := s.socket(here), s.socket(there)
	if r := s.do("POST", "/api/auth/password", here, `{"current_password":"trader-pass","new_password":"trader-pass-2"}`); r.Status != 200 {
		t.Fatalf("change password: %+v", r)
	}
	if !closedByServer(theirs) {
		t.Fatal("the other session's socket: still open")
	}
	if !stillOpen(mine) {
		t.Fatal("this session's socket closed")
	}
}
