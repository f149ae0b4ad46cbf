package app_test

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"kestrel/notify"
)

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A person's risk refusal is told to their channels iff its audit entry is
// stored: the event commits in the entry's transaction. With the audit
// write of one refusal failing (a trigger refuses its row), that refusal
// has no message anywhere, in the outbox or on the wire; the next one,
// audited, is delivered.
func TestARefusalIsNotifiedIffItsAuditEntryIsStored(t *testing.T) {
	dir := t.TempDir()
	s := startWith(t, dir, fastNotify)
	op, tok := s.accounts()
	rcv := newHookReceiver(t)
	id, _ := s.subscribe(op, rcv.srv.URL+"/hook")
	if r := s.do("PUT", "/api/notifications/routing", op, `{"routes":{"risk.limit_reached":["`+id+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		t.Fatalf("routing: %+v", r)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "kestrel.db"))
	noErr(t, err)
	defer db.Close()
	_, err = db.Exec(`CREATE TRIGGER refuse_one_audit BEFORE INSERT ON audit_log WHEN NEW.request_id = 'audit-fails'
		BEGIN SELECT RAISE(ABORT, 'audit refused for the test'); END`)
	noErr(t, err)

	refuse := func(qty, requestID string) {
		req, _ := http.NewRequest("POST", s.url+"/api/trading/execute", strings.NewReader(`{"symbol":"BTC-USD","action":"BUY","quantity":`+qty+`}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Request-ID", requestID)
		resp, err := http.DefaultClient.Do(req)
		noErr(t, err)
		resp.Body.Close()
		if resp.StatusCode != 422 {
			t.Fatalf("oversized buy of %s: %d, want 422", qty, resp.StatusCode)
		}
	}
	refuse("3", "audit-fails")
	refuse("4", "audited")

	got := rcv.waitFor(t, "BUY 4 BTC-USD")
	if len(got) != 1 || !strings.Contains(got[0].body, `"type":"risk.limit_reached"`) {
		t.Fatalf("the audited refusal's webhooks: %+v", got)
	}
	log, err := s.app.Notify.Deliveries(context.Background(), "", "", 100)
	noErr(t, err)
	n := 0
	for _, d := range log {
		if d.Type == notify.RiskLimitReached {
			n++
			if strings.Contains(string(d.Payload), "BUY 3 BTC-USD") {
				t.Fatalf("the refusal whose audit entry was not stored was queued: %+v", d)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d risk.limit_reached messages, want 1 (the audited refusal's)", n)
	}
	var audited int
	noErr(t, db.QueryRow(`SELECT COUNT(*) FROM audit_log WHERE action = 'POST /api/trading/execute' AND status = 422`).Scan(&audited))
	if audited != 1 {
		t.Fatalf("%d refusals audited, want 1", audited)
	}
}
