package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kestrel/app"
)

// postFrom sends body to path as if forwarded for client by the proxy.
func (s *server) postFrom(client, path, body string) int {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.url+path, strings.NewReader(body))
	req.Header.Set("X-Forwarded-For", client)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

type auditEntry struct {
	Action, Actor, Detail, Remote string
	Status                        int
}

func (s *server) audit(op string) []auditEntry {
	var a struct{ Entries []auditEntry }
	s.into(s.do("GET", "/api/audit?limit=1000", op, ""), &a)
	return a.Entries
}

// A flood of failed logins with huge emails leaves a bounded audit log: each
// entry is short, the address's limit caps the failures recorded, and of
// the refusals after it only the first is written (issue 21, item 2).
func TestFailedLoginFloodKeepsTheAuditLogBounded(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	before := len(s.audit(op))

	huge := strings.Repeat("x", 200<<10)
	codes := map[int]int{}
	for i := range 60 {
		body := fmt.Sprintf(`{"email":"%d%s@example.com","password":"wrong-password"}`, i, huge)
		codes[s.do("POST", "/api/auth/login", "", body).Status]++
	}
	if codes[401] != 20 || codes[429] != 40 {
		t.Fatalf("answers %v: want 20 failures then 40 refusals", codes)
	}
	entries := s.audit(op)
	added := entries[:len(entries)-before] // newest first; reading the audit is not written to it
	if len(added) != 21 {
		t.Fatalf("%d audit entries for the flood, want 21 (20 failures, the first refusal)", len(added))
	}
	total := 0
	for _, e := range added {
		b, _ := json.Marshal(e)
		total += len(b)
		if len(e.Detail) > 500 || len(e.Actor) > 254 || strings.ContainsAny(e.Detail, "\r\n") {
			t.Fatalf("unbounded audit entry: %d-byte detail", len(e.Detail))
		}
	}
	if total > 21*1024 {
		t.Fatalf("the flood's audit entries take %d bytes", total)
	}
	t.Logf("60 failed logins with 200 KiB emails: %d audit entries, %d bytes", len(added), total)
}

// Behind a trusted proxy the limits apply to each client: one client's
// failures do not lock out another reaching the server through the same
// proxy, and the audit log names the client (issue 21, items 2 and 6).
func TestTrustedProxyNamesTheClient(t *testing.T) {
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.TrustedProxies = "127.0.0.1/32, ::1" })
	op, _ := s.accounts()
	refused := 0
	for i := range 25 {
		if s.postFrom("203.0.113.7", "/api/auth/login", fmt.Sprintf(`{"email":"guess%d@example.com","password":"wrong-password"}`, i)) == 429 {
			refused++
		}
	}
	if refused != 5 {
		t.Fatalf("%d of 25 guesses from one client refused, want the 5 past its limit of 20", refused)
	}
	if code := s.postFrom("198.51.100.2", "/api/auth/login", `{"email":"op@example.com","password":"operator-pass"}`); code != 200 {
		t.Fatalf("the operator through the same proxy: %d", code)
	}
	found := false
	for _, e := range s.audit(op) {
		found = found || (e.Action == "POST /api/auth/login" && e.Status == 401 && e.Remote == "203.0.113.7")
	}
	if !found {
		t.Fatal("no audit entry naming the forwarded client")
	}
}
