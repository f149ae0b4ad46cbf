package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The trading rules of the gateway as a trader meets them over HTTP.
func TestTradingRulesOverHTTP(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()

	t.Run("ADA trades in hundredths of a cent", func(t *testing.T) {
		r := s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"ADA-USD","side":"BUY","quantity":1000,"price":"0.0512"}`)
		if r.Status != 201 {
			t.Fatalf("ADA limit at 0.0512: %+v", r)
		}
		r = s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":"1000.001"}`)
		if r.Status != 400 || r.Error.Fields["price"] != "Price must be a multiple of 0.01" {
			t.Fatalf("BTC limit at 1000.001: %+v", r)
		}
	})

	t.Run("products report their increments", func(t *testing.T) {
		var p struct {
			Products []struct {
				ProductID      string `json:"product_id"`
				PriceIncrement string `json:"price_increment"`
				BaseIncrement  string `json:"base_increment"`
				BaseMinSize    string `json:"base_min_size"`
			}
		}
		s.into(s.do("GET", "/api/market-data/products", tok, ""), &p)
		got := map[string]string{}
		for _, x := range p.Products {
			got[x.ProductID] = x.PriceIncrement + " " + x.BaseIncrement + " " + x.BaseMinSize
		}
		if got["ADA-USD"] != "0.0001 0.00000001 0.00000001" || got["BTC-USD"] != "0.01 0.00000001 0.00000001" {
			t.Fatalf("products %v", got)
		}
	})

	t.Run("balances add up", func(t *testing.T) {
		var b struct {
			Balances []struct {
				Asset                  string
				Available, Hold, Total decimal.Decimal
			}
		}
		s.into(s.do("GET", "/api/trading/balances", tok, ""), &b)
		var usd bool
		for _, x := range b.Balances {
			if !x.Available.Add(x.Hold).Equal(x.Total) {
				t.Errorf("%s: %s + %s != %s", x.Asset, x.Available, x.Hold, x.Total)
			}
			if x.Asset == "USD" {
				usd = x.Hold.IsPositive() // the resting ADA buy holds USD
			}
		}
		if !usd {
			t.Fatalf("no USD hold for the resting order: %+v", b)
		}
	})

	t.Run("client order ids", func(t *testing.T) {
		body := `{"symbol":"BTC-USD","action":"BUY","quantity":0.001,"client_order_id":"cid-7"}`
		a := s.do("POST", "/api/trading/execute", tok, body)
		b := s.do("POST", "/api/trading/execute", tok, body)
		if a.Status != 201 || b.Status != 200 || !strings.Contains(string(b.Data), orderID(t, s, a)) {
			t.Fatalf("repeat: %d then %d", a.Status, b.Status)
		}
		c := s.do("POST", "/api/trading/execute", tok, strings.Replace(body, "0.001", "0.002", 1))
		if c.Status != 409 {
			t.Fatalf("same id, other order: %+v", c)
		}
	})

	t.Run("modify is checked like a new order", func(t *testing.T) {
		r := s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"BTC-USD","side":"BUY","quantity":0.002,"price":10000}`)
		id := orderID(t, s, r)
		m := s.do("PUT", "/api/trading/orders/"+id, tok, `{"quantity":1.9}`)
		if m.Status != 422 || !strings.Contains(m.Error.Message, "maximum trade amount") {
			t.Fatalf("modify to 1.9 BTC: %+v", m)
		}
	})

	t.Run("halted: a position can still be sold", func(t *testing.T) {
		r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.5}`)
		if r.Status != 201 {
			t.Fatalf("buy: %+v", r)
		}
		if r := s.do("POST", "/api/trading/stop", tok, `{}`); r.Status != 200 {
			t.Fatalf("stop: %+v", r)
		}
		if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`); r.Status != 422 {
			t.Fatalf("buy while halted: %+v", r)
		}
		if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"SELL","quantity":0.5}`); r.Status != 201 {
			t.Fatalf("sell while halted: %+v", r)
		}
	})
}

func orderID(t *testing.T, s *server, r reply) string {
	t.Helper()
	var o struct {
		OrderID string `json:"order_id"`
	}
	if !r.Success {
		t.Fatalf("order not placed: %+v", r)
	}
	s.into(r, &o)
	if o.OrderID == "" {
		t.Fatalf("no order id in %+v", r)
	}
	return o.OrderID
}
