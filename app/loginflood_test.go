package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
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
// entry is short, the address's limit caps the refused attempts recorded
// (an email over 254 bytes is a 400 that counts against the address), and
// of the refusals after it only the first is written (issue 21, item 2;
// issue 33, item 1).
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
	if codes[400] != 20 || codes[429] != 40 {
		t.Fatalf("answers %v: want 20 invalid emails then 40 refusals", codes)
	}
	entries := s.audit(op)
	added := entries[:len(entries)-before] // newest first; reading the audit is not written to it
	if len(added) != 21 {
		t.Fatalf("%d audit entries for the flood, want 21 (20 invalid attempts, the first refusal)", len(added))
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

// memNow is the live heap after a collection and the process's resident
// memory, in bytes.
func memNow(t *testing.T) (heap, rss uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status to read the resident memory from")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			rss = kb << 10
		}
	}
	return m.HeapAlloc, rss
}

// 400 logins with 1 MB emails from many clients (through a trusted proxy,
// so that the address limits do not stop them first) leave the live heap
// and the resident memory within 20 MB of where they started: an email
// over 254 bytes is refused before any limiter, and limiters keep fixed-size
// keys (issue 33, item 1: before, 300 such logins left 313 MB of live heap
// and 400 took the resident memory from 117 MB to 726 MB).
func TestHugeEmailLoginFloodKeepsMemoryBounded(t *testing.T) {
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.TrustedProxies = "127.0.0.1/32, ::1" })
	s.accounts()
	huge := strings.Repeat("x", 1_000_000)
	s.postFrom("192.0.2.1", "/api/auth/login", `{"email":"warm@example.com","password":"wrong-password"}`)
	heap0, rss0 := memNow(t)
	codes := map[int]int{}
	for i := range 400 {
		body := fmt.Sprintf(`{"email":"%d%s@example.com","password":"wrong-password"}`, i, huge)
		codes[s.postFrom(fmt.Sprintf("10.%d.%d.1", i/250, i%250), "/api/auth/login", body)]++
	}
	if codes[400] != 400 {
		t.Fatalf("answers %v: want 400 refusals of the email", codes)
	}
	_, rssHeld := memNow(t)
	debug.FreeOSMemory() // what the runtime would return to the system in time anyway
	heap1, rss1 := memNow(t)
	t.Logf("400 logins with 1 MB emails: live heap %.1f -> %.1f MB, resident %.1f -> %.1f MB (%.1f MB before freed pages went back)",
		float64(heap0)/1e6, float64(heap1)/1e6, float64(rss0)/1e6, float64(rss1)/1e6, float64(rssHeld)/1e6)
	if heap1 > heap0+20e6 || rss1 > rss0+20e6 {
		t.Fatalf("memory grew past 20 MB: heap %d -> %d, resident %d -> %d", heap0, heap1, rss0, rss1)
	}
}
