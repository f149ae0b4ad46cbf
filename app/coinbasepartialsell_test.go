package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
)

// After a buy on Coinbase the protective stop holds the BTC. A partial SELL
// still goes through: the stop is shrunk in place to the remainder (an edit
// of its size), same order, stop price and protective group, so the rest
// of the position is guarded throughout.
func TestCoinbasePartialSellOfAProtectedPosition(t *testing.T) {
	fake, srv, key, secret := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(secret)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	d := decimal.RequireFromString
	var placed struct{ Order domain.Order }
	s.into(s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != domain.StatusFilled {
		t.Fatalf("buy: %+v", placed.Order)
	}
	buyID := placed.Order.ID
	waitUntil(t, "the protective stop holding the BTC", func() bool {
		avail, hold := fake.Balance("BTC")
		return avail.IsZero() && hold.Equal(d("0.01"))
	})
	open := func() []domain.Order {
		var list struct{ Orders []domain.Order }
		s.into(s.do("GET", "/api/trading/orders?status_filter=open", op, ""), &list)
		return list.Orders
	}
	before := open()
	if len(before) != 1 || before[0].Type != domain.StopLoss {
		t.Fatalf("open orders after the buy: %+v", before)
	}
	stop := before[0]

	r := s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"SELL","quantity":0.004}`)
	if !r.Success {
		t.Fatalf("partial sell of the protected position refused: %+v", r)
	}
	s.into(r, &placed)
	if !r.Success || placed.Order.Status != domain.StatusFilled || !placed.Order.FilledQuantity.Equal(d("0.004")) {
		t.Fatalf("partial sell of the protected position: %+v", r)
	}
	after := open()
	if len(after) != 1 {
		t.Fatalf("open orders after the sell: %+v", after)
	}
	rp := after[0]
	if rp.ID != stop.ID || rp.Type != domain.StopLoss || rp.Side != domain.Sell || !rp.Quantity.Equal(d("0.006")) ||
		rp.StopPrice == nil || !rp.StopPrice.Equal(*stop.StopPrice) || rp.GroupID != stop.GroupID || rp.ParentID != buyID {
		t.Fatalf("the remainder's protection: %+v (was %+v)", rp, stop)
	}
	if avail, hold := fake.Balance("BTC"); !avail.IsZero() || !hold.Equal(d("0.006")) {
		t.Fatalf("BTC at Coinbase: %s available, %s on hold", avail, hold)
	}
	if n := fake.OrderCount(); n != 3 {
		t.Fatalf("%d orders at Coinbase, want the buy, its stop and the sell (no replacement)", n)
	}
}
