package coinbase_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// With no key stored the live market still works: prices from the public
// WebSocket channels, products and candles from the public REST endpoints,
// and not one request carries a key.
func TestMarketNeedsNoKey(t *testing.T) {
	creds, _ := coinbasefake.NewKey(coinbasefake.Ed25519, "organizations/o/apiKeys/unused")
	fake := coinbasefake.New(creds.Name, creds.Public)
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	start := time.Now().UTC().Truncate(time.Hour).Add(-3 * time.Hour)
	var cs []domain.Candle
	for i := 0; i < 3; i++ {
		p := d("50000").Add(decimal.NewFromInt(int64(100 * i)))
		cs = append(cs, domain.Candle{Time: start.Add(time.Duration(i) * time.Hour), Open: p, High: p, Low: p, Close: p, Volume: d("1")})
	}
	fake.SetCandles("BTC-USD", cs)
	cfg := coinbase.Config{APIURL: srv.URL, WSURL: "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws", Timeout: 5 * time.Second}
	feed, err := coinbase.OpenMarket(cfg, nil, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); feed.Start(fctx) }()
	t.Cleanup(func() { cancel(); <-done })
	ticks := feed.Subscribe(fctx)
	waitFor(t, "the public subscriptions", func() bool { return fake.Subscribers("ticker") == 1 })
	fake.SetPrice("BTC-USD", "50500")
	if tk := nextTick(t, ticks, "BTC-USD"); !tk.Price.Equal(d("50500")) {
		t.Fatalf("tick %+v", tk)
	}
	got, err := feed.Candles(ctx, "BTC-USD", domain.OneHour, start, start.Add(3*time.Hour), 0)
	if err != nil || len(got) != 3 || !got[2].Close.Equal(d("50200")) {
		t.Fatalf("candles %+v %v", got, err)
	}
	// The exchange side without a key reads product metadata publicly and
	// refuses what needs the key, without sending anything.
	x := coinbase.New(coinbase.Options{Client: mustClient(t, srv.URL)})
	if ps, err := x.Products(ctx); err != nil || len(ps) != 4 {
		t.Fatalf("products %+v %v", ps, err)
	}
	if _, err := x.Balances(ctx); domain.ErrorCode(err) != domain.EUnavailable || !strings.Contains(domain.ErrorMessage(err), "No Coinbase API key") {
		t.Fatalf("balances without a key: %v", err)
	}
	log := fake.RequestLog()
	routes := map[string]bool{}
	for _, r := range log {
		if r.Keyed {
			t.Fatalf("%s carried a key", r.Route)
		}
		routes[r.Route] = true
	}
	for _, want := range []string{"WS subscribe ticker", "GET /market/products/BTC-USD/candles", "GET /market/products"} {
		if !routes[want] {
			t.Fatalf("no %q among %v", want, log)
		}
	}
}

func mustClient(t *testing.T, url string) *coinbase.Client {
	t.Helper()
	c, err := coinbase.NewClient(coinbase.ClientConfig{BaseURL: url})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
