package ws

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// One user's connections beyond the cap are refused with 429 before the
// upgrade; another user still connects, and a closed connection frees its place.
func TestPerUserConnectionCap(t *testing.T) {
	h := NewHub(16, nil)
	h.SetLimits(Limits{PerUser: 2})
	base := sessionServer(t, h, &sessions{})
	a := dial(t, base+"ann-phone")
	dial(t, base+"ann-laptop")
	waitClients(t, h, 2)

	_, res, err := websocket.Dial(context.Background(), base+"ann-phone", nil)
	if err == nil || res == nil || res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third connection of ann: err %v, response %+v; want 429", err, res)
	}
	dial(t, base+"bob") // another user is not affected
	waitClients(t, h, 3)

	a.Close(websocket.StatusNormalClosure, "")
	waitClients(t, h, 2)
	dial(t, base+"ann-phone")
}

// A client that sends more than its allowance is disconnected with a reason.
func TestInboundMessageRateLimit(t *testing.T) {
	h := NewHub(64, nil)
	h.SetLimits(Limits{PerUser: 10, MessageBurst: 5, MessagesPerSecond: 1.0 / 3600}) // no refill within the test
	c := dial(t, sessionServer(t, h, &sessions{})+"bob")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := range 5 {
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`)); err != nil {
			t.Fatal(err)
		}
		if _, b, err := c.Read(ctx); err != nil || !strings.Contains(string(b), `"type":"ack"`) {
			t.Fatalf("answer %d: %s, %v; want an ack", i, b, err)
		}
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if got := closedWith(t, c); got != reasonTooManyMessages {
		t.Fatalf("close reason %q, want %q", got, reasonTooManyMessages)
	}
}
