package app_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/exchange/coinbase/coinbasefake"
)

// The connection test calls Coinbase (here the fake, through
// KESTREL_COINBASE_API_URL) with the entered key and reports what it said.
func TestCoinbaseConnectionTest(t *testing.T) {
	key, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/kestrel-e2e/apiKeys/settings")
	if err != nil {
		t.Fatal(err)
	}
	pemText := key.Secret
	fake := coinbasefake.New(key.Name, key.Public)
	fake.Deposit("USD", "2500")
	fake.Deposit("BTC", "0.5")
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	body := func(name, secret string) string {
		b, _ := json.Marshal(map[string]any{"provider": "exchange", "settings": map[string]any{"exchange": map[string]any{
			"provider": "coinbase", "apiKey": name, "apiSecret": secret, "sandbox": false, "timeout": 5000, "rateLimit": 10}}})
		return string(b)
	}
	var tc struct{ Provider, Status, Message string }
	s.into(s.do("POST", "/api/settings/test-connection", op, body(key.Name, pemText)), &tc)
	if tc.Status != "Connected" || !strings.Contains(tc.Message, "2 accounts") {
		t.Fatalf("good key: %+v", tc)
	}
	if reqs := fake.Requests(); len(reqs) != 1 || reqs[0] != "GET /accounts" {
		t.Fatalf("requests %v", reqs) // a test reads accounts only; the app still trades on the sandbox
	}
	other, _ := coinbasefake.NewKey(coinbasefake.ECDSA, key.Name)
	s.into(s.do("POST", "/api/settings/test-connection", op, body(key.Name, other.Secret)), &tc)
	if tc.Status != "Failed" || !strings.Contains(tc.Message, "refused the API key") {
		t.Fatalf("wrong key: %+v", tc)
	}
	// Saved, the masked secret stands for the stored one.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	s.into(s.do("POST", "/api/settings/test-connection", op, `{"provider":"exchange"}`), &tc)
	if tc.Status != "Connected" {
		t.Fatalf("saved key: %+v", tc)
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// fakeCoinbase runs the fake exchange with a funded account and its key.
func fakeCoinbase(t *testing.T) (*coinbasefake.Fake, *httptest.Server, coinbasefake.Credentials, string) {
	t.Helper()
	key, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/kestrel-app/apiKeys/trading")
	if err != nil {
		t.Fatal(err)
	}
	pemText := key.Secret
	fake := coinbasefake.New(key.Name, key.Public)
	// A fifth of the sandbox's 100,000: the drawdown limit and the day's
	// P&L must measure this account from the switch, not the sandbox's past.
	fake.Deposit("USD", "20000")
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	return fake, srv, key, pemText
}

// Saving provider coinbase switches the running app to the adapter and
// Coinbase's feed: prices come from the market channel (labelled), a limit
// order rests at the exchange, and its fill arrives over the user channel
// into the positions.
func TestCoinbaseTradingThroughTheApp(t *testing.T) {
	fake, srv, key, pemText := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	var rt struct {
		Ticker struct{ Price decimal.Decimal }
		Source string
	}
	waitUntil(t, "a Coinbase price", func() bool {
		r := s.do("GET", "/api/market-data/realtime/BTC-USD", op, "")
		return r.Success && json.Unmarshal(r.Data, &rt) == nil && rt.Ticker.Price.Equal(decimal.RequireFromString("50000"))
	})
	if rt.Source != "Coinbase live market data" {
		t.Fatalf("source %q", rt.Source)
	}
	var placed struct{ Order struct{ ID, Status string } }
	r := s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	s.into(r, &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", r)
	}
	// The gateway guarded the fill with a protective stop-loss, at Coinbase a stop-limit.
	waitUntil(t, "the protective stop at Coinbase", func() bool { return fake.OrderCount() == 2 })
	r = s.do("POST", "/api/trading/orders/limit", op, `{"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":49500}`)
	s.into(r, &placed)
	if placed.Order.Status != "open" || fake.OrderCount() != 3 {
		t.Fatalf("limit order: %+v, %d at Coinbase", placed, fake.OrderCount())
	}
	fake.SetPrice("BTC-USD", "49400") // above the first buy's protective stop (2% under 50,000)
	var pos struct {
		Positions []struct {
			Symbol   string
			Quantity decimal.Decimal
		}
	}
	waitUntil(t, "the fill in the positions", func() bool {
		s.into(s.do("GET", "/api/trading/positions", op, ""), &pos)
		return len(pos.Positions) == 1 && pos.Positions[0].Quantity.Equal(decimal.RequireFromString("0.02"))
	})
	waitUntil(t, "the second protective stop", func() bool { return fake.OrderCount() == 4 })
	var st map[string]json.RawMessage
	s.into(s.do("GET", "/api/system/status", op, ""), &st)
	if _, ok := st["coinbase_api"]; !ok {
		t.Fatalf("status has no coinbase_api entry: %s", st["exchange_api_key"])
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// An Ed25519 key (the base64 secret CDP shows) and an EC key both connect
// to the fake, which verifies each with its own code; a malformed secret
// gets an answer naming both accepted kinds.
func TestCoinbaseKeyKindsConnect(t *testing.T) {
	for _, kind := range []coinbasefake.KeyKind{coinbasefake.Ed25519, coinbasefake.ECDSA} {
		t.Run(string(kind), func(t *testing.T) {
			key, err := coinbasefake.NewKey(kind, "organizations/kestrel-app/apiKeys/"+string(kind))
			if err != nil {
				t.Fatal(err)
			}
			fake := coinbasefake.New(key.Name, key.Public)
			fake.Deposit("USD", "100")
			srv := httptest.NewServer(fake.Handler())
			defer srv.Close()
			s := startWith(t, t.TempDir(), func(c *app.Config) { c.CoinbaseAPIURL = srv.URL })
			op, _ := s.accounts()
			test := func(secret string) (tc struct{ Status, Message string }) {
				b, _ := json.Marshal(map[string]any{"provider": "exchange", "settings": map[string]any{"exchange": map[string]any{
					"provider": "coinbase", "apiKey": key.Name, "apiSecret": secret, "sandbox": false, "timeout": 5000, "rateLimit": 10}}})
				s.into(s.do("POST", "/api/settings/test-connection", op, string(b)), &tc)
				return tc
			}
			if tc := test(key.Secret); tc.Status != "Connected" {
				t.Fatalf("%s key: %+v", kind, tc)
			}
			if reqs := fake.RequestLog(); len(reqs) != 1 || !reqs[0].Keyed {
				t.Fatalf("requests %+v", reqs)
			}
			tc := test("-----BEGIN EC PRIVATE KEY-----not base64-----END EC PRIVATE KEY-----")
			if tc.Status != "Failed" || !strings.Contains(tc.Message, "Ed25519") || !strings.Contains(tc.Message, "EC P-256") {
				t.Fatalf("malformed key: %+v", tc)
			}
		})
	}
}
