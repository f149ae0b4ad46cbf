package app_test

import (
	"strings"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/exchange/coinbase/coinbasefake"
)

// Paper on live prices: a new exchange timeout (or rate limit) rebuilds the
// Coinbase market feed at once, not at the next venue switch or restart,
// and the paper account, its open order and the risk state go on.
func TestPaperLiveFeedFollowsTheExchangeTimeout(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the public Coinbase market feed", func() bool { return fake.Subscribers("ticker") == 1 })
	fake.SetPrice("BTC-USD", "60000")
	waitUntil(t, "the live price", func() bool { return s.do("GET", "/api/market-data/ticker/BTC-USD", op, "").Success })
	if r := s.do("POST", "/api/trading/orders/limit", op, `{"symbol":"BTC-USD","side":"BUY","quantity":"0.01","price":"50000"}`); !r.Success {
		t.Fatalf("resting paper limit: %+v", r)
	}
	afresh := func() (n int) {
		for _, e := range s.audit(op) {
			if e.Action == "risk state started afresh" {
				n++
			}
		}
		return n
	}
	before := afresh()

	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"timeout":1000,"rateLimit":5}}}`); r.Status != 200 {
		t.Fatalf("save the timeout: %+v", r)
	}
	// A candles request Coinbase never answers gives up after the new
	// second, not the old 30.
	fake.Inject(coinbasefake.Fault{Match: "GET /market/products/BTC-USD/candles", Times: 1, Hang: true})
	began := time.Now()
	s.do("GET", "/api/market-data/candles/BTC-USD?granularity=ONE_MINUTE&limit=5", op, "")
	if took := time.Since(began); took > 10*time.Second {
		t.Fatalf("an unanswered candles request took %v: the feed still has the old timeout", took)
	}
	if fake.PendingFaults() != 0 {
		t.Fatal("the candles request did not reach Coinbase")
	}
	var open struct{ Orders []struct{ Status string } }
	s.into(s.do("GET", "/api/trading/orders?status_filter=open", op, ""), &open)
	if len(open.Orders) != 1 {
		t.Fatalf("open paper orders after the rebuild: %+v", open)
	}
	if n := afresh(); n != before {
		t.Fatalf("the risk state started afresh %d time(s) on a feed rebuild", n-before)
	}
}
