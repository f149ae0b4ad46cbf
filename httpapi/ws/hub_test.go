package ws

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

type tick struct {
	Symbol string `json:"symbol"`
	Price  string `json:"price"`
}

func (t tick) SymbolName() string { return t.Symbol }

func newServer(t testing.TB, h *Hub) string {
	auth := func(_ context.Context, c Credentials) (Identity, error) {
		if c.Ticket != "good" {
			return Identity{}, errors.New("no")
		}
		return Identity{UserID: "u1", SessionID: "s1"}, nil
	}
	srv := httptest.NewServer(h.Handler(auth, func(s string) bool { return s == "BTC-USD" || s == "ETH-USD" }))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

func dial(t testing.TB, url string) *websocket.Conn {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func send(t testing.TB, c *websocket.Conn, msg string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	return read(t, c)
}

func read(t testing.TB, c *websocket.Conn) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

func waitClients(t *testing.T, h *Hub, n int) {
	for i := 0; i < 200 && h.Stats().Clients != n; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := h.Stats().Clients; got != n {
		t.Fatalf("clients = %d, want %d", got, n)
	}
}

func TestRejectsMissingToken(t *testing.T) {
	url := newServer(t, NewHub(8, []string{"BTC-USD", "ETH-USD"}))
	_, res, err := websocket.Dial(context.Background(), url+"?ticket=bad", nil)
	if err == nil || res == nil || res.StatusCode != 401 {
		t.Fatalf("dial with a bad token: err=%v res=%v, want 401", err, res)
	}
}

func TestSubscribeFiltersByChannelAndSymbol(t *testing.T) {
	h := NewHub(8, []string{"BTC-USD", "ETH-USD"})
	url := newServer(t, h) + "?ticket=good"
	c := dial(t, url)
	if ack := send(t, c, `{"action":"subscribe","channels":["ticker"],"symbols":["BTC-USD"]}`); ack["type"] != "ack" {
		t.Fatalf("ack = %v", ack)
	}
	if e := send(t, c, `{"action":"subscribe","channels":["bogus"]}`); e["type"] != "error" || !strings.Contains(e["message"].(string), "Unknown channel") {
		t.Fatalf("bad channel reply = %v", e)
	}
	if e := send(t, c, `{"action":"subscribe","channels":["ticker"],"symbols":["DOGE-USD"]}`); e["type"] != "error" {
		t.Fatalf("bad symbol reply = %v", e)
	}
	waitClients(t, h, 1)
	now := time.Now()
	h.Broadcast(ChannelTicker, "market_data", "ETH-USD", tick{"ETH-USD", "1"}, now)  // filtered out
	h.Broadcast(ChannelAlerts, "system_alert", "", map[string]string{"x": "y"}, now) // not subscribed
	h.Broadcast(ChannelTicker, "market_data", "BTC-USD", tick{"BTC-USD", "2"}, now)
	m := read(t, c)
	if m["type"] != "market_data" || m["channel"] != "ticker" || m["data"].(map[string]any)["symbol"] != "BTC-USD" {
		t.Fatalf("frame = %v, want the BTC-USD tick only", m)
	}
	send(t, c, `{"action":"unsubscribe","channels":["ticker"]}`)
	h.Broadcast(ChannelTicker, "market_data", "BTC-USD", tick{"BTC-USD", "3"}, now)
	if e := send(t, c, `{"action":"ping"}`); e["type"] != "ack" {
		t.Fatalf("after unsubscribe the next frame = %v, want the ping ack", e)
	}
}

func TestSlowClientIsDroppedOthersKeepReceiving(t *testing.T) {
	h := NewHub(4, []string{"BTC-USD", "ETH-USD"})
	url := newServer(t, h) + "?ticket=good"
	slow := dial(t, url)
	fast := dial(t, url)
	send(t, slow, `{"action":"subscribe","channels":["ticker"]}`)
	send(t, fast, `{"action":"subscribe","channels":["ticker"]}`)
	waitClients(t, h, 2)

	// Broadcast in lockstep with the fast client: it must receive every frame
	// while the slow one, never reading, fills its socket and queue and is dropped.
	big := strings.Repeat("9", 16<<10)
	for i := 0; i < 2000; i++ {
		h.Broadcast(ChannelTicker, "market_data", "BTC-USD", tick{"BTC-USD", big}, time.Now())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := fast.Read(ctx)
		cancel()
		if err != nil {
			t.Fatalf("fast client lost frame %d: %v", i, err)
		}
		if h.Stats().SlowDisconnect > 0 && i > 10 {
			break
		}
	}
	if h.Stats().SlowDisconnect < 1 {
		t.Fatalf("slow client was not dropped: %+v", h.Stats())
	}
}

func TestFeedSetStopsPublishing(t *testing.T) {
	h := NewHub(8, []string{"BTC-USD", "ETH-USD"})
	url := newServer(t, h) + "?ticket=good"
	c := dial(t, url)
	send(t, c, `{"action":"subscribe","channels":["ticker"]}`)
	waitClients(t, h, 1)
	h.SetFeed([]string{"BTC-USD"}, []string{"ticker"}, false)
	if got := h.Feed()["BTC-USD"]; len(got) != 1 || got[0] != "trades" {
		t.Fatalf("feed for BTC-USD = %v, want [trades]", got)
	}
	h.Broadcast(ChannelTicker, "market_data", "BTC-USD", tick{"BTC-USD", "1"}, time.Now())
	h.Broadcast(ChannelTicker, "market_data", "ETH-USD", tick{"ETH-USD", "2"}, time.Now())
	if m := read(t, c); m["data"].(map[string]any)["symbol"] != "ETH-USD" {
		t.Fatalf("frame = %v, want only ETH-USD after BTC-USD left the feed", m)
	}
}
