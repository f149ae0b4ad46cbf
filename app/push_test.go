package app_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kestrel/notify"
	"kestrel/notify/pushtest"
)

// A browser subscribes through the API with the key the server publishes;
// a market buy's fill then reaches its push service through the outbox,
// signed and encrypted for that browser, and the emergency stop at high
// urgency. The Push switch off fails the message with the reason.
func TestPushGetsTheFillThroughTheOutbox(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	_, tok := s.accounts()
	b := pushtest.NewBrowser(t)
	fake := pushtest.NewService(t, b)

	var key struct {
		PublicKey string `json:"public_key"`
	}
	s.into(s.do("GET", "/api/notifications/push/key", tok, ""), &key)
	if r := s.do("GET", "/api/notifications/push/key", "", ""); r.Status != 401 {
		t.Fatalf("the key without signing in: %d", r.Status)
	}
	fake.Publish(key.PublicKey)
	s.allowLoopbackTargets() // the fake push service is a loopback server
	sub, _ := json.Marshal(b.Subscription(fake.Srv.URL + "/wpush/v2/abc"))
	r := s.do("POST", "/api/notifications/channels", tok, `{"kind":"push","name":"Chrome on Linux","subscription":`+string(sub)+`}`)
	var ch struct{ ID, Kind, URL string }
	s.into(r, &ch)
	if r.Status != 201 || ch.Kind != "push" || strings.Contains(string(r.Data), "p256dh") {
		t.Fatalf("create push channel: %d %s", r.Status, r.Data)
	}
	if r := s.do("PUT", "/api/notifications/routing", tok, `{"routes":{"order.filled":["`+ch.ID+`"],"trading.emergency_stop":["`+ch.ID+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		t.Fatalf("routing: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", tok, `{"ui":{"notifications":{"push":true}}}`); r.Status != 200 {
		t.Fatalf("push switch on: %+v", r)
	}

	var placed struct{ Order order }
	s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", placed)
	}
	if r := s.do("POST", "/api/trading/stop", tok, ""); r.Status != 200 {
		t.Fatalf("stop: %+v", r)
	}
	var fill, stop *pushtest.Pushed
	for i := 0; fill == nil || stop == nil; i++ {
		if i == 500 {
			got, _ := fake.Messages()
			t.Fatalf("push service got %+v", got)
		}
		time.Sleep(20 * time.Millisecond)
		got, _ := fake.Messages()
		for _, p := range got {
			switch p.Note.Type {
			case notify.OrderFilled:
				fill = &p
			case notify.EmergencyStop:
				stop = &p
			}
		}
	}
	if fill.Note.OrderID != placed.Order.ID || fill.Note.Title != "Kestrel: Order filled" || !strings.Contains(fill.Note.Body, "BUY 0.01 BTC-USD") || fill.Endpoint != "/wpush/v2/abc" {
		t.Fatalf("fill notice: %+v", fill)
	}
	if stop.Urgency != "high" || !strings.Contains(stop.Note.Title, "Emergency stop") {
		t.Fatalf("emergency stop notice: %+v", stop)
	}

	if r := s.do("PUT", "/api/settings", tok, `{"ui":{"notifications":{"push":false}}}`); r.Status != 200 {
		t.Fatalf("push switch off: %+v", r)
	}
	r = s.do("POST", "/api/notifications/channels/"+ch.ID+"/test", tok, "")
	if r.Status != 200 || !strings.Contains(string(r.Data), `"status":"failed"`) || !strings.Contains(string(r.Data), "push is off") {
		t.Fatalf("test with the switch off: %d %s", r.Status, r.Data)
	}
}
