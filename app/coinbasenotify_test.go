package app_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kestrel/app"
	"kestrel/notify"
)

// On Coinbase, a fill made while Kestrel was stopped is notified once after
// the start, and the fills notified before the stop are not notified again,
// although the restarted adapter, remembering nothing, reports the day's
// fills anew (its first resync).
func TestCoinbaseFillsAreNotifiedOnceAcrossARestart(t *testing.T) {
	fake, srv, key, pemText := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	cfg := func(c *app.Config) {
		fastNotify(c)
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	}
	dir := t.TempDir()
	s := startWith(t, dir, cfg)
	op, _ := s.accounts()
	rcv := newHookReceiver(t)
	s.subscribe(op, rcv.srv.URL+"/hook")
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	priced := func(s *server, price string) {
		fake.SetPrice("BTC-USD", price)
		waitUntil(t, "a Coinbase price", func() bool {
			return strings.Contains(string(s.do("GET", "/api/market-data/realtime/BTC-USD", op, "").Data), `"price":"`+price+`"`)
		})
	}
	priced(s, "50000")
	buy := func(s *server, body string) string {
		var placed struct{ Order struct{ ID, Status string } }
		path, in, _ := strings.Cut(body, " ")
		r := s.do("POST", "/api/trading/"+path, op, in)
		if !r.Success {
			t.Fatalf("%s: %+v", body, r)
		}
		s.into(r, &placed)
		return placed.Order.ID
	}
	before := buy(s, `execute {"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	resting := buy(s, `orders/limit {"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":49500}`)
	rcv.waitFor(t, `"order_id":"`+before+`"`)
	s.app.Close()

	fake.SetPrice("BTC-USD", "49400") // the resting buy fills while Kestrel is stopped (above the protective stop)

	s2 := startWith(t, dir, cfg)
	waitUntil(t, "the Coinbase feeds after the start", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	priced(s2, "49400")
	rcv.waitFor(t, `"order_id":"`+resting+`"`)
	// Once the adapter's first resync has reported the day's fills again, a
	// new fill: it is routed after whatever that resync made.
	waitUntil(t, "the adapter's first resync", func() bool { return !s2.app.Exchange.Health().LastCommit.IsZero() })
	after := buy(s2, `execute {"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	rcv.waitFor(t, `"order_id":"`+after+`"`)

	log, err := s2.app.Notify.Deliveries(context.Background(), "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	filled := map[string]int{}
	for _, d := range log {
		if d.Type == notify.OrderFilled {
			filled[d.OrderID]++
		}
	}
	if filled[before] != 1 || filled[resting] != 1 || filled[after] != 1 || len(filled) != 3 {
		t.Fatalf("order.filled messages by order %v; want one each for %s (before the stop), %s (while stopped), %s (after)", filled, before, resting, after)
	}
	for _, c := range rcv.waitFor(t, `"type":"order.filled"`) {
		var m struct {
			OrderID string `json:"order_id"`
		}
		if err := json.Unmarshal([]byte(c.body), &m); err != nil || filled[m.OrderID] == 0 {
			t.Fatalf("a webhook for an unknown order: %s", c.body)
		}
	}
}
