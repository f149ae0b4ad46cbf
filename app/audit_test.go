package app_test

import (
	"strconv"
	"strings"
	"testing"
)

// Every order request leaves exactly one audit entry with the status it was
// answered with: new, modified and cancelled orders (whose entries are stored
// with the change itself), a repeated client order id, a refusal and a
// validation error alike.
func TestOrderRequestsAreAuditedOnce(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	type sent struct {
		path, body string
		want       int
	}
	reqs := []sent{
		{"/api/trading/orders/limit", `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","price":"20000","client_order_id":"aud-1"}`, 201},
		{"/api/trading/execute", `{"symbol":"BTC-USD","action":"BUY","quantity":"0.001","order_type":"market","client_order_id":"aud-2"}`, 201},
		{"/api/trading/orders/stop-loss", `{"symbol":"BTC-USD","side":"SELL","quantity":"0.0005","stop_price":"30000","client_order_id":"aud-3"}`, 201},
		{"/api/trading/orders/limit", `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","price":"20000","client_order_id":"aud-1"}`, 200},
		{"/api/trading/orders/limit", `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","price":"20000.001"}`, 400},
	}
	ids := map[string]bool{}
	var first string
	for _, r := range reqs {
		got := s.do("POST", r.path, op, r.body)
		if got.Status != r.want {
			t.Fatalf("%s %s: %d %+v, want %d", r.path, r.body, got.Status, got.Error, r.want)
		}
		if got.Status < 300 {
			var o struct {
				OrderID string `json:"order_id"`
			}
			s.into(got, &o)
			ids[o.OrderID] = true
			if first == "" {
				first = o.OrderID
			}
		}
	}
	// The resting limit modified, cancelled, and cancelled again (409).
	for _, r := range []struct {
		method, path, body string
		want               int
	}{
		{"PUT", "/api/trading/orders/" + first, `{"price":"21000"}`, 200},
		{"DELETE", "/api/trading/orders/" + first, "", 200},
		{"DELETE", "/api/trading/orders/" + first, "", 409},
	} {
		if got := s.do(r.method, r.path, op, r.body); got.Status != r.want {
			t.Fatalf("%s %s: %d %+v, want %d", r.method, r.path, got.Status, got.Error, r.want)
		}
	}
	var audit struct {
		Entries []struct {
			Action, Detail string
			Status         int
		}
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	count := map[string]int{}
	for _, e := range audit.Entries {
		if strings.Contains(e.Action, "/api/trading/") {
			count[e.Action+" "+strconv.Itoa(e.Status)]++
			if e.Status < 300 {
				found := false
				for id := range ids {
					found = found || strings.Contains(e.Detail, "("+id+")")
				}
				if !found {
					t.Errorf("entry %+v names none of the placed orders %v", e, ids)
				}
			}
		}
	}
	want := map[string]int{
		"POST /api/trading/orders/limit 201":           1,
		"POST /api/trading/execute 201":                1,
		"POST /api/trading/orders/stop-loss 201":       1,
		"POST /api/trading/orders/limit 200":           1,
		"POST /api/trading/orders/limit 400":           1,
		"PUT /api/trading/orders/" + first + " 200":    1,
		"DELETE /api/trading/orders/" + first + " 200": 1,
		"DELETE /api/trading/orders/" + first + " 409": 1,
	}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d entries, want %d (all: %v)", k, count[k], n, count)
		}
	}
	if len(count) != len(want) {
		t.Errorf("unexpected entries: %v", count)
	}
}
