package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type sessionInfo struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	UserAgent  string    `json:"user_agent"`
	Remote     string    `json:"remote"`
	Current    bool      `json:"current"`
}

func (s *server) sessions(token string) []sessionInfo {
	s.t.Helper()
	var out struct{ Sessions []sessionInfo }
	r := s.do("GET", "/api/auth/sessions", token, "")
	if r.Status != 200 {
		s.t.Fatalf("sessions: %+v", r)
	}
	s.into(r, &out)
	return out.Sessions
}

// loginAs signs in with a user agent of its own.
func (s *server) loginAs(email, password, agent string) string {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.url+"/api/auth/login", strings.NewReader(`{"email":"`+email+`","password":"`+password+`"}`))
	req.Header.Set("User-Agent", agent)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	i := strings.Index(string(raw), `"token":"`)
	if res.StatusCode != 200 || i < 0 {
		s.t.Fatalf("login: %d %s", res.StatusCode, raw)
	}
	rest := string(raw)[i+9:]
	return rest[:strings.IndexByte(rest, '"')]
}

// A user lists their own sessions (with the client that opened each, the
// current one marked) and signs out everywhere else: the other sessions and
// their realtime connections end, this one stays, other users' are untouched.
func TestOwnSessions(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	phone := s.loginAs("t@example.com", "trader-pass", "Phone/1.0")
	laptop := s.loginAs("t@example.com", "trader-pass", "Laptop/2.0")

	list := s.sessions(laptop)
	if len(list) != 3 {
		t.Fatalf("sessions = %+v, want 3", list)
	}
	if !list[0].Current || list[0].UserAgent != "Laptop/2.0" || list[0].Remote != "127.0.0.1" || list[1].Current || list[1].UserAgent != "Phone/1.0" {
		t.Fatalf("sessions = %+v, want the laptop's first and current, then the phone's", list)
	}
	for _, ss := range list {
		if ss.ID == "" || strings.Contains(ss.ID, laptop) || ss.CreatedAt.IsZero() || ss.LastUsedAt.Before(ss.CreatedAt) {
			t.Fatalf("session %+v", ss)
		}
	}
	if n := len(s.sessions(op)); n != 2 { // registration's and the login's
		t.Fatalf("operator sees %d sessions, want only their own 2", n)
	}

	// Ending another user's session by its id is not possible.
	if r := s.do("DELETE", "/api/auth/sessions/"+list[1].ID, op, ""); r.Status != 404 {
		t.Fatalf("operator ending a trader's session: %+v", r)
	}
	// One session ended by id.
	if r := s.do("DELETE", "/api/auth/sessions/"+list[1].ID, laptop, ""); r.Status != 200 {
		t.Fatalf("end the phone's session: %+v", r)
	}
	if r := s.do("GET", "/api/auth/me", phone, ""); r.Status != 401 {
		t.Fatalf("phone after its session ended: %d", r.Status)
	}

	// Sign out everywhere else.
	c := s.socket(trader)
	var out struct{ Ended int }
	s.into(s.do("POST", "/api/auth/sessions/end-others", laptop, ""), &out)
	if out.Ended != 1 {
		t.Fatalf("ended %d, want 1 (the first sign-in)", out.Ended)
	}
	if r := s.do("GET", "/api/auth/me", trader, ""); r.Status != 401 {
		t.Fatalf("other session after sign-out everywhere: %d", r.Status)
	}
	if !closedByServer(c) {
		t.Fatal("the other session's realtime connection stayed open")
	}
	if r := s.do("GET", "/api/auth/me", laptop, ""); r.Status != 200 {
		t.Fatalf("the current session ended too: %d", r.Status)
	}
	if r := s.do("GET", "/api/auth/me", op, ""); r.Status != 200 {
		t.Fatalf("another user's session ended: %d", r.Status)
	}
	if list := s.sessions(laptop); len(list) != 1 || !list[0].Current {
		t.Fatalf("sessions after = %+v", list)
	}
}
