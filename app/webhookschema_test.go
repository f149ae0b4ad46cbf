package app_test

import (
	"testing"

	"kestrel/httpapi/openapi/openapitest"
)

// What a webhook receives matches the published NotificationMessage
// schema: a fill and the "Send test" message alike.
func TestWebhookBodiesMatchTheDescription(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	_, tok := s.accounts()
	rcv := newHookReceiver(t)
	id, _ := s.subscribe(tok, rcv.srv.URL+"/hook")
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`); r.Status != 201 {
		t.Fatalf("market buy: %+v", r)
	}
	if r := s.do("POST", "/api/notifications/channels/"+id+"/test", tok, ""); r.Status != 200 {
		t.Fatalf("send test: %+v", r)
	}
	for _, kind := range []string{`"type":"order.filled"`, `"type":"notification.test"`} {
		for _, c := range rcv.waitFor(t, kind) {
			openapitest.CheckSchema(t, "NotificationMessage", []byte(c.body))
		}
	}
}
