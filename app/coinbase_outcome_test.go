package app_test

import (
	"strings"
	"testing"

	"kestrel/app"
	"kestrel/exchange/coinbase/coinbasefake"
)

// Through the app on Coinbase (the fake): a limit order whose every create
// Coinbase answers 5xx (which does not say it was not processed) is 504
// outcome_unknown, not a 503 that promises it did not run; retried with the
// same client order id it is placed once, and retried again it is that order.
func TestCoinbaseUnconfirmedOrderIs504AndRetryPlacesOnce(t *testing.T) {
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
	fake.SetPrice("BTC-USD", "50000")
	order := `{"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":49500,"client_order_id":"web-1"}`
	// The adapter sends a create at most four times (three retries), looking
	// for it by client order id after each.
	fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 4, Status: 503})
	r := s.do("POST", "/api/trading/orders/limit", op, order)
	if r.Status != 504 || r.Error.Code != "outcome_unknown" || !strings.Contains(r.Error.Message, "same client order id") {
		t.Fatalf("unconfirmed order: %+v", r)
	}
	if n, left := fake.OrderCount(), fake.PendingFaults(); n != 0 || left != 0 {
		t.Fatalf("%d orders at Coinbase, %d faults not met", n, left)
	}
	var placed struct {
		Order struct{ ID, Status, ClientOrderID string }
	}
	first := ""
	for i := 0; i < 2; i++ {
		r = s.do("POST", "/api/trading/orders/limit", op, order)
		s.into(r, &placed)
		if placed.Order.Status != "open" || fake.OrderCount() != 1 || (first != "" && placed.Order.ID != first) {
			t.Fatalf("retry %d: %+v, %d orders at Coinbase, want the one open order", i+1, r, fake.OrderCount())
		}
		first = placed.Order.ID
	}
}
