package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"kestrel/app"
	"kestrel/exchange/coinbase/coinbasefake"
)

type orderBook struct {
	Symbol    string
	Available bool
	Reason    string
	Bids      []struct{ Price, Size string }
	Asks      []struct{ Price, Size string }
}

// The order book: absent on the replay with the reason; on the live
// (fake) Coinbase market, the level2 book over REST and on the WebSocket's
// orderbook channel, following a change of the book.
func TestOrderBookFollowsLevel2(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, trader := s.accounts()
	var b orderBook
	s.into(s.do("GET", "/api/market-data/orderbook/BTC-USD", trader, ""), &b)
	if b.Available || !strings.Contains(b.Reason, "replay") || len(b.Bids) != 0 {
		t.Fatalf("book on the replay: %+v", b)
	}
	if r := s.do("GET", "/api/market-data/orderbook/DOGE-USD", trader, ""); r.Status != 404 {
		t.Fatalf("unknown symbol: %+v", r)
	}

	c, _, err := websocket.Dial(context.Background(), strings.Replace(s.url, "http", "ws", 1)+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + trader}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","channels":["orderbook"],"symbols":["BTC-USD"]}`)); err != nil {
		t.Fatal(err)
	}

	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the level2 subscription", func() bool { return fake.Subscribers("level2") == 1 })
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "61230", Size: "1"}, {Price: "61220", Size: "0.5"}},
		[]coinbasefake.Level{{Price: "61234.5", Size: "0.005"}, {Price: "61240", Size: "0.004"}})
	waitUntil(t, "the book over REST", func() bool {
		s.into(s.do("GET", "/api/market-data/orderbook/BTC-USD", trader, ""), &b)
		return b.Available && len(b.Bids) == 2 && len(b.Asks) == 2
	})
	if b.Bids[0].Price != "61230" || b.Bids[1].Price != "61220" || b.Asks[0].Price != "61234.5" || b.Asks[0].Size != "0.005" {
		t.Fatalf("book %+v: want bids high to low, asks low to high", b)
	}
	// A change of the book reaches the channel.
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "61231", Size: "2"}}, []coinbasefake.Level{{Price: "61234.5", Size: "0.005"}})
	rctx, rcancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer rcancel()
	for {
		_, raw, err := c.Read(rctx)
		if err != nil {
			t.Fatalf("no orderbook frame with the changed book: %v", err)
		}
		var m struct {
			Type, Channel string
			Data          orderBook
		}
		if json.Unmarshal(raw, &m) != nil || m.Type != "orderbook" {
			continue
		}
		if m.Channel != "orderbook" || m.Data.Symbol != "BTC-USD" {
			t.Fatalf("frame %s", raw)
		}
		if m.Data.Available && len(m.Data.Bids) == 1 && m.Data.Bids[0].Price == "61231" {
			break
		}
	}
}
