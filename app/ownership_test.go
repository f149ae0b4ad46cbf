package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// One trader's modify or cancel of another trader's order is refused with
// 403 and changes nothing, the protective stop included; an operator may
// act on any order, and the audit names whose it was (issue 21, item 4).
func TestTradersChangeOnlyTheirOwnOrders(t *testing.T) {
	s := start(t, t.TempDir())
	op, alice := s.accounts()
	if r := s.do("POST", "/api/users", op, `{"email":"bob@example.com","name":"Bob","password":"bob-password","role":"trader"}`); !r.Success {
		t.Fatalf("create bob: %+v", r)
	}
	bob := s.login("bob@example.com", "bob-password")

	// Alice buys (the fill gets a protective stop) and rests a limit.
	var placed struct{ Order order }
	s.into(s.do("POST", "/api/trading/execute", alice, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("alice's buy: %+v", placed)
	}
	var stop order
	for i := 0; i < 200 && stop.ID == ""; i++ {
		var list struct{ Orders []order }
		s.into(s.do("GET", "/api/trading/orders?status_filter=open", alice, ""), &list)
		for _, o := range list.Orders {
			if o.ParentID == placed.Order.ID {
				stop = o
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if stop.ID == "" {
		t.Fatal("no protective stop for alice's buy")
	}
	var lim struct{ Order order }
	s.into(s.do("POST", "/api/trading/orders/limit", alice, `{"symbol":"ETH-USD","side":"BUY","quantity":0.1,"price":100}`), &lim)
	if lim.Order.Status != "open" {
		t.Fatalf("alice's limit: %+v", lim)
	}

	for _, c := range []struct{ method, id, body string }{
		{"PUT", lim.Order.ID, `{"price":"150"}`},
		{"DELETE", lim.Order.ID, ""},
		{"PUT", stop.ID, `{"price":"1000"}`},
		{"DELETE", stop.ID, ""},
	} {
		if r := s.do(c.method, "/api/trading/orders/"+c.id, bob, c.body); r.Status != 403 || r.Error.Code != "forbidden" {
			t.Fatalf("bob's %s of alice's order %s: %d %+v", c.method, c.id, r.Status, r.Error)
		}
	}
	byID := func() map[string]order {
		var list struct{ Orders []order }
		s.into(s.do("GET", "/api/trading/orders?status_filter=open", alice, ""), &list)
		m := map[string]order{}
		for _, o := range list.Orders {
			m[o.ID] = o
		}
		return m
	}
	now := byID()
	if o, ok := now[lim.Order.ID]; !ok || !o.Price.Equal(*lim.Order.Price) || !o.Quantity.Equal(lim.Order.Quantity) {
		t.Fatalf("alice's limit changed by bob's refused requests: %+v", o)
	}
	if o, ok := now[stop.ID]; !ok || o.Status != stop.Status || !o.Quantity.Equal(stop.Quantity) {
		t.Fatalf("alice's protective stop changed by bob's refused requests: %+v (was %+v)", o, stop)
	}

	// Alice changes her own; an operator cancels it, audited as hers.
	if r := s.do("PUT", "/api/trading/orders/"+lim.Order.ID, alice, `{"price":"150"}`); r.Status != 200 {
		t.Fatalf("alice's modify of her own limit: %+v", r)
	}
	if r := s.do("DELETE", "/api/trading/orders/"+lim.Order.ID, op, ""); r.Status != 200 {
		t.Fatalf("the operator's cancel of alice's limit: %+v", r)
	}
	var audit struct {
		Entries []struct{ Action, Actor, Detail string }
	}
	s.into(s.do("GET", "/api/audit?limit=50", op, ""), &audit)
	found := false
	for _, e := range audit.Entries {
		if e.Action == "DELETE /api/trading/orders/"+lim.Order.ID && e.Actor == "op@example.com" && strings.Contains(e.Detail, "order of user") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no audit entry naming the owner of the order the operator cancelled: %+v", audit.Entries)
	}
}

// A manual order cannot carry a strategy's name as its label, in any case
// or spacing, on any of the placing routes: it would count in that
// strategy's figures and AI trade memory (issue 33, item 11). Other labels,
// the Close Position button's included, are accepted.
func TestManualOrdersCannotClaimAStrategyName(t *testing.T) {
	s := start(t, t.TempDir())
	_, trader := s.accounts()
	for path, body := range map[string]string{
		"/api/trading/execute":              `{"symbol":"BTC-USD","action":"BUY","quantity":0.001,"strategy":"%s"}`,
		"/api/trading/orders/limit":         `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":1000,"strategy":"%s"}`,
		"/api/trading/orders/stop-loss":     `{"symbol":"BTC-USD","side":"SELL","quantity":0.001,"stop_price":1000,"strategy":"%s"}`,
		"/api/trading/orders/trailing-stop": `{"symbol":"BTC-USD","side":"SELL","quantity":0.001,"trail_percent":5,"strategy":"%s"}`,
	} {
		for _, label := range []string{"technical_strategy", " AI_Strategy "} {
			r := s.do("POST", path, trader, fmt.Sprintf(body, label))
			if r.Status != 400 || !strings.Contains(r.Error.Fields["strategy"], "is a strategy's name") {
				t.Errorf("%s labelled %q: %d %+v, want 400 on strategy", path, label, r.Status, r.Error)
			}
		}
	}
	for _, label := range []string{"my-swing", "position_close"} {
		if r := s.do("POST", "/api/trading/orders/limit", trader, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":20000,"strategy":"`+label+`"}`); r.Status != 201 {
			t.Errorf("label %q: %d %+v, want 201", label, r.Status, r.Error)
		}
	}
}
