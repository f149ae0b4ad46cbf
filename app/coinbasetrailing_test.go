package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
)

// With the Trailing stop loss setting on, a BUY filled on Coinbase is
// guarded by a trailing stop Kestrel keeps there: a real stop-limit 2%
// under the fill that rises in place with the live price, shown in Orders
// as a trailing stop, with no 'Trailing stop not available' alert.
func TestCoinbaseTrailingProtectiveStop(t *testing.T) {
	fake, srv, key, secret := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"automation":{"trailingStopLoss":true}}}`); r.Status != 200 {
		t.Fatalf("trailing setting: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(secret)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	var placed struct{ Order domain.Order }
	s.into(s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != domain.StatusFilled {
		t.Fatalf("buy: %+v", placed.Order)
	}
	d := decimal.RequireFromString
	stopAt := func(want string) func() bool {
		return func() bool {
			var list struct{ Orders []domain.Order }
			s.into(s.do("GET", "/api/trading/orders?status_filter=open", op, ""), &list)
			return len(list.Orders) == 1 && list.Orders[0].Type == domain.TrailingStop && list.Orders[0].StopPrice.Equal(d(want)) &&
				list.Orders[0].Trail != nil && list.Orders[0].Trail.Percent.Equal(d("2")) && list.Orders[0].ParentID == placed.Order.ID
		}
	}
	waitUntil(t, "a trailing stop at 49,000 in Orders", stopAt("49000"))
	// Coinbase sends a ticker with every trade: the price is set again
	// until the stop follows it.
	waitUntil(t, "the stop raised to 49,980", func() bool { fake.SetPrice("BTC-USD", "51000"); return stopAt("49980")() })
	for _, o := range fake.Orders() {
		if c := o.OrderConfiguration.StopLimitGTC; c != nil && c.StopPrice != "49980" {
			t.Fatalf("stop at Coinbase: %+v", c)
		}
	}
	var alerts struct {
		Alerts []struct{ Title, Message string }
	}
	s.into(s.do("GET", "/api/system/alerts?resolved=false", op, ""), &alerts)
	for _, a := range alerts.Alerts {
		if strings.Contains(a.Title, "Trailing stop") || strings.Contains(a.Title, "Protective order") {
			t.Fatalf("alert %q: %s", a.Title, a.Message)
		}
	}
}
