package app_test

import (
	"strings"
	"testing"
	"time"
)

// A disabled user receives nothing (issue 33, item 7): with the trader's
// account disabled, the emergency stop (a platform event) reaches the
// operator's webhook but not the trader's, and a fill queued for the
// trader before the disable (their receiver was down) is never delivered
// once the receiver is back: it fails, saying the account is disabled.
func TestDisabledUserReceivesNothing(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, tok := s.accounts()
	opRcv, trRcv := newHookReceiver(t), newHookReceiver(t)
	s.allowLoopbackTargets()
	route := func(tok, url string) string {
		t.Helper()
		r := s.do("POST", "/api/notifications/channels", tok, `{"name":"Hook","url":"`+url+`"}`)
		var ch struct{ ID string }
		s.into(r, &ch)
		if r.Status != 201 {
			t.Fatalf("create channel: %+v", r)
		}
		if r := s.do("PUT", "/api/notifications/routing", tok, `{"routes":{"order.filled":["`+ch.ID+`"],"trading.emergency_stop":["`+ch.ID+`"],"digest.daily":["`+ch.ID+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
			t.Fatalf("routing: %+v", r)
		}
		return ch.ID
	}
	route(op, opRcv.srv.URL+"/op")
	trCh := route(tok, trRcv.srv.URL+"/trader")

	// A fill for the trader while their receiver is down: queued, retried.
	trRcv.setDown(true)
	var placed struct{ Order order }
	s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", placed)
	}
	type delivery struct {
		Channel, Status, Type string
		Attempts              int
		LastError             string `json:"last_error"`
	}
	var log []delivery
	for i := 0; ; i++ {
		s.into(s.do("GET", "/api/notifications/deliveries?scope=all", op, ""), &log)
		if len(log) == 1 && log[0].Attempts > 0 {
			break
		}
		if i == 500 {
			t.Fatalf("the trader's fill was not attempted: %+v", log)
		}
		time.Sleep(20 * time.Millisecond)
	}

	var me struct{ ID string }
	s.into(s.do("GET", "/api/auth/me", tok, ""), &me)
	if r := s.do("PATCH", "/api/users/"+me.ID, op, `{"disabled":true}`); r.Status != 200 {
		t.Fatalf("disable: %+v", r)
	}
	trRcv.setDown(false)
	if r := s.do("POST", "/api/trading/stop", op, ""); r.Status != 200 {
		t.Fatalf("stop: %+v", r)
	}
	opRcv.waitFor(t, `"type":"trading.emergency_stop"`)
	for i := 0; ; i++ {
		s.into(s.do("GET", "/api/notifications/deliveries?scope=all", op, ""), &log)
		var trader []delivery
		for _, d := range log {
			if d.Channel == trCh {
				trader = append(trader, d)
			}
		}
		if len(trader) == 1 && trader[0].Status == "failed" {
			if trader[0].Type != "order.filled" || !strings.Contains(trader[0].LastError, "disabled") {
				t.Fatalf("the trader's queued fill: %+v", trader[0])
			}
			break
		}
		if len(trader) > 1 || i == 500 {
			t.Fatalf("the disabled trader's deliveries: %+v", trader)
		}
		time.Sleep(20 * time.Millisecond)
	}
	trRcv.mu.Lock()
	defer trRcv.mu.Unlock()
	if len(trRcv.ok) != 0 {
		t.Fatalf("the disabled trader's receiver got %+v", trRcv.ok)
	}
}
