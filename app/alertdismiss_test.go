package app_test

import (
	"fmt"
	"strings"
	"testing"
)

type listedAlert struct {
	ID        int64
	Title     string
	Resolved  bool
	Dismissed bool
}

func (s *server) openAlerts(tok string) []listedAlert {
	s.t.Helper()
	var out struct{ Alerts []listedAlert }
	s.into(s.do("GET", "/api/system/alerts?resolved=false", tok, ""), &out)
	return out.Alerts
}

func findAlert(list []listedAlert, title string) (listedAlert, bool) {
	for _, a := range list {
		if a.Title == title {
			return a, true
		}
	}
	return listedAlert{}, false
}

// A trader's order refused by the risk check is answered in the form (422
// with the reason) and raises no system alert; the notifications still
// carry risk.limit_reached to whoever routes it (issue 27, item 5).
func TestTradersRiskRefusalIsNoAlert(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, tok := s.accounts()
	rcv := newHookReceiver(t)
	id, _ := s.subscribe(op, rcv.srv.URL+"/hook")
	if r := s.do("PUT", "/api/notifications/routing", op, `{"routes":{"risk.limit_reached":["`+id+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		t.Fatalf("routing: %+v", r)
	}
	r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":3}`)
	if r.Status != 422 || r.Error.Code != "rejected" {
		t.Fatalf("oversized buy: %d %+v", r.Status, r.Error)
	}
	for _, who := range []string{tok, op} {
		if a, ok := findAlert(s.openAlerts(who), "Order refused by risk check"); ok {
			t.Fatalf("a trader's refused order raised a system alert: %+v", a)
		}
	}
	got := rcv.waitFor(t, `"type":"risk.limit_reached"`)
	if len(got) != 1 || !strings.Contains(got[0].body, `"title":"Order refused by risk check"`) || !strings.Contains(got[0].body, "BUY 3 BTC-USD") {
		t.Fatalf("risk.limit_reached webhooks: %+v", got)
	}
}

// Dismissing is per user, on the server, and is not resolving: a trader's
// dismissal hides the alert for that trader only, in every browser, names
// nobody else, and leaves it open for the operator to resolve.
func TestDismissingAnAlertIsPerUser(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	if r := s.do("POST", "/api/trading/stop", tok, ""); r.Status != 200 {
		t.Fatalf("stop: %+v", r)
	}
	stop, ok := findAlert(s.openAlerts(tok), "Emergency stop active")
	if !ok || stop.Dismissed {
		t.Fatalf("emergency stop alert for the trader: %+v %v", stop, ok)
	}
	path := fmt.Sprintf("/api/system/alerts/%d/dismiss", stop.ID)
	if r := s.do("POST", path, "", ""); r.Status != 401 {
		t.Fatalf("dismiss without a token: %d", r.Status)
	}
	// A body naming another user changes nothing: the dismissal is the caller's.
	var opID string
	var me struct{ ID string }
	s.into(s.do("GET", "/api/auth/me", op, ""), &me)
	opID = me.ID
	r := s.do("POST", path, tok, `{"user_id":"`+opID+`"}`)
	var d listedAlert
	s.into(r, &d)
	if r.Status != 200 || !d.Dismissed || d.Resolved || d.ID != stop.ID {
		t.Fatalf("trader dismisses: %d %+v", r.Status, d)
	}
	if a, _ := findAlert(s.openAlerts(tok), "Emergency stop active"); !a.Dismissed {
		t.Fatalf("the trader's list after dismissing: %+v", a)
	}
	a, ok := findAlert(s.openAlerts(op), "Emergency stop active")
	if !ok || a.Dismissed || a.Resolved {
		t.Fatalf("the operator's list after the trader dismissed: %+v %v (want open, not dismissed)", a, ok)
	}
	if r := s.do("POST", path, tok, ""); r.Status != 200 {
		t.Fatalf("dismiss again: %+v", r)
	}
	for _, bad := range []string{"999999", "abc", "-1", "0"} {
		r := s.do("POST", "/api/system/alerts/"+bad+"/dismiss", tok, "")
		if r.Status != 404 || r.Error.Code != "not_found" {
			t.Errorf("dismiss %s: %d %+v", bad, r.Status, r.Error)
		}
	}
	// Resolving stays what it was: Resume resolves the stop's alert for everyone.
	if r := s.do("POST", "/api/trading/resume", op, ""); r.Status != 200 {
		t.Fatalf("resume: %+v", r)
	}
	if a, ok := findAlert(s.openAlerts(op), "Emergency stop active"); ok {
		t.Fatalf("still open after Resume: %+v", a)
	}
}
