package app_test

import (
	"net"
	"strings"
	"testing"

	"kestrel/notify"
)

// Loopback receivers only when an operator allows them, and a trader's
// "Send test" says delivered or failed, not what the receiver did (issue
// 33, item 8): by default a trader's http://127.0.0.1 channel is refused;
// with the setting on, the test of a channel to a closed port answers
// failed with a fixed message, the trader's delivery log the same, and the
// operator's log has the dial error.
func TestTraderChannelTestsDoNotProbeLoopback(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, tok := s.accounts()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/admin"
	l.Close() // nothing listens there now

	r := s.do("POST", "/api/notifications/channels", tok, `{"name":"Probe","url":"`+closed+`"}`)
	if r.Status != 400 || !strings.Contains(r.Error.Fields["url"], "https://") {
		t.Fatalf("a loopback channel with the setting off: %+v", r)
	}
	var cur struct {
		Settings struct {
			System struct{ Notifications map[string]any }
		}
	}
	s.into(s.do("GET", "/api/settings", op, ""), &cur)
	if v, ok := cur.Settings.System.Notifications["allowLoopbackTargets"]; !ok || v != false {
		t.Fatalf("allowLoopbackTargets by default: %v (present %v)", v, ok)
	}

	s.allowLoopbackTargets()
	var ch struct{ ID string }
	s.into(s.do("POST", "/api/notifications/channels", tok, `{"name":"Probe","url":"`+closed+`"}`), &ch)
	var d struct {
		Status    string
		LastError string `json:"last_error"`
	}
	s.into(s.do("POST", "/api/notifications/channels/"+ch.ID+"/test", tok, ""), &d)
	if d.Status != "failed" || d.LastError != notify.RemoteFailure {
		t.Fatalf("the trader's test answer: %+v", d)
	}
	var log []struct {
		Status    string
		LastError string `json:"last_error"`
	}
	s.into(s.do("GET", "/api/notifications/deliveries", tok, ""), &log)
	if len(log) != 1 || log[0].LastError != notify.RemoteFailure {
		t.Fatalf("the trader's delivery log: %+v", log)
	}
	s.into(s.do("GET", "/api/notifications/deliveries?scope=all", op, ""), &log)
	if len(log) != 1 || !strings.Contains(log[0].LastError, "refused") {
		t.Fatalf("the operator's delivery log: %+v", log)
	}
}
