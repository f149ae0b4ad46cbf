package app_test

import (
	"strings"
	"testing"
)

// The plaintext export of secrets is a POST for operators that re-enter
// their password, and it is audited; the GET export never carries secrets
// (issue 21, item 7).
func TestPlaintextExportNeedsThePasswordAndIsAudited(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	const key = "KEY-PLAINTEXT-EXPORT-1"
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":"`+key+`","apiSecret":"SECRET-2"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	if r := s.do("GET", "/api/settings/export?include_secrets=true", op, ""); r.Status != 400 || r.Error.Fields["include_secrets"] == "" {
		t.Fatalf("GET with include_secrets=true: %+v", r)
	}
	if r := s.do("POST", "/api/settings/export", trader, `{"password":"trader-pass"}`); r.Status != 403 {
		t.Fatalf("a trader's plaintext export: %+v", r)
	}
	r := s.do("POST", "/api/settings/export", op, `{"password":"not-my-password"}`)
	if r.Status != 400 || r.Error.Fields["password"] == "" || strings.Contains(string(r.Data), key) {
		t.Fatalf("wrong password: %+v", r)
	}
	r = s.do("POST", "/api/settings/export", op, `{"password":"operator-pass"}`)
	if r.Status != 200 || !strings.Contains(string(r.Data), key) {
		t.Fatalf("plaintext export: %d", r.Status)
	}
	var refused, exported bool
	for _, e := range s.audit(op) {
		if e.Action == "POST /api/settings/export" && e.Actor == "op@example.com" {
			refused = refused || (e.Status == 400 && strings.Contains(e.Detail, "refused"))
			exported = exported || (e.Status == 200 && strings.Contains(e.Detail, "secrets in plaintext"))
		}
		if strings.Contains(e.Detail, "operator-pass") || strings.Contains(e.Detail, key) {
			t.Fatalf("the audit log holds a secret: %+v", e)
		}
	}
	if !refused || !exported {
		t.Fatalf("audit: refused %v, exported %v", refused, exported)
	}
}
