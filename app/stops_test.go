package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// A stop is modified over HTTP with price (the spec's payload) or
// stop_price; a stop price the market passed, more than the position, or
// stop_price on a limit order is a 400 naming the field sent; the stop then
// shows on the position.
func TestModifyAStopOverHTTP(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var tk struct{ Price decimal.Decimal }
	s.into(s.do("GET", "/api/market-data/ticker/BTC-USD", tok, ""), &tk)
	at := func(f string) string { return tk.Price.Mul(decimal.RequireFromString(f)).Round(2).String() }

	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":"0.002"}`); r.Status != 201 {
		t.Fatalf("buy: %+v", r)
	}
	id := orderID(t, s, s.do("POST", "/api/trading/orders/stop-loss", tok,
		`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","stop_price":"`+at("0.8")+`"}`))

	for _, c := range []struct{ body, field, msg string }{
		{`{"stop_price":"` + at("1.2") + `"}`, "stop_price", "Stop price must be below the current price"},
		{`{"price":"` + at("1.2") + `"}`, "price", "Stop price must be below the current price"},
		{`{"quantity":"5"}`, "quantity", "Quantity must not exceed the position"},
		{`{"stop_price":"0"}`, "stop_price", "Valid stop price is required for stop orders"},
		{`{"price":"1","stop_price":"1"}`, "stop_price", "Send price or stop_price, not both"},
	} {
		r := s.do("PUT", "/api/trading/orders/"+id, tok, c.body)
		if r.Status != 400 || !strings.HasPrefix(r.Error.Fields[c.field], c.msg) {
			t.Fatalf("%s: %d %+v, want 400 %s: %s", c.body, r.Status, r.Error, c.field, c.msg)
		}
	}
	r := s.do("PUT", "/api/trading/orders/"+id, tok, `{"stop_price":"`+at("0.7")+`","quantity":"0.0015"}`)
	var o struct {
		Order struct {
			ID        string          `json:"id"`
			StopPrice decimal.Decimal `json:"stop_price"`
			Quantity  decimal.Decimal `json:"quantity"`
			Status    string          `json:"status"`
		}
	}
	s.into(r, &o)
	if r.Status != 200 || o.Order.ID != id || o.Order.StopPrice.String() != at("0.7") || o.Order.Quantity.String() != "0.0015" || o.Order.Status != "open" {
		t.Fatalf("modify: %d %+v", r.Status, o)
	}

	lim := orderID(t, s, s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","price":"`+at("0.5")+`"}`))
	if r := s.do("PUT", "/api/trading/orders/"+lim, tok, `{"stop_price":"100"}`); r.Status != 400 || !strings.HasPrefix(r.Error.Fields["stop_price"], "Stop price applies to stop orders only") {
		t.Fatalf("stop_price on a limit: %+v", r)
	}

	var ps struct {
		Positions []struct {
			Symbol     string
			Protection []struct {
				OrderID  string          `json:"order_id"`
				Kind     string          `json:"kind"`
				Price    decimal.Decimal `json:"price"`
				Quantity decimal.Decimal `json:"quantity"`
			}
		}
	}
	s.into(s.do("GET", "/api/trading/positions", tok, ""), &ps)
	found := false
	for _, p := range ps.Positions {
		for _, l := range p.Protection {
			found = found || (p.Symbol == "BTC-USD" && l.OrderID == id && l.Kind == "stop_loss" && l.Price.String() == at("0.7") && l.Quantity.String() == "0.0015")
		}
	}
	if !found {
		t.Fatalf("the stop is not on the position: %+v", ps)
	}
}

// A trailing stop over HTTP: placed with trail_percent, its stop set from
// the market below the price; both trails or none is a 400 by field; its
// quantity can be modified, its price not.
func TestTrailingStopOverHTTP(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":"0.002"}`); r.Status != 201 {
		t.Fatalf("buy: %+v", r)
	}
	for _, c := range []struct{ body, field string }{
		{`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001"}`, "trail_percent"},
		{`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","trail_percent":"2","trail_amount":"100"}`, "trail_percent"},
		{`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","trail_percent":"150"}`, "trail_percent"},
		{`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","trail_amount":"100","activation_price":"-5"}`, "activation_price"},
	} {
		if r := s.do("POST", "/api/trading/orders/trailing-stop", tok, c.body); r.Status != 400 || r.Error.Fields[c.field] == "" {
			t.Fatalf("%s: %d %+v, want 400 on %s", c.body, r.Status, r.Error, c.field)
		}
	}
	r := s.do("POST", "/api/trading/orders/trailing-stop", tok, `{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","trail_percent":"2"}`)
	var o struct {
		Order struct {
			ID        string          `json:"id"`
			Type      string          `json:"order_type"`
			StopPrice decimal.Decimal `json:"stop_price"`
			Trail     struct {
				Percent decimal.Decimal `json:"trail_percent"`
				Extreme decimal.Decimal `json:"extreme_price"`
			}
		}
	}
	s.into(r, &o)
	if r.Status != 201 || o.Order.Type != "trailing_stop" || !o.Order.Trail.Percent.Equal(decimal.NewFromInt(2)) ||
		!o.Order.StopPrice.Equal(o.Order.Trail.Extreme.Mul(decimal.RequireFromString("0.98")).RoundDown(2)) {
		t.Fatalf("trailing stop: %d %+v", r.Status, o)
	}
	if m := s.do("PUT", "/api/trading/orders/"+o.Order.ID, tok, `{"price":"1000"}`); m.Status != 400 || !strings.Contains(m.Error.Fields["price"], "follows the market") {
		t.Fatalf("modify a trailing stop's price: %+v", m)
	}
	if m := s.do("PUT", "/api/trading/orders/"+o.Order.ID, tok, `{"quantity":"0.0015"}`); m.Status != 200 {
		t.Fatalf("modify a trailing stop's quantity: %+v", m)
	}
}
