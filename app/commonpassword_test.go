package app_test

import (
	"strings"
	"testing"
)

// Through the real server, a common password is a 400 field error at
// registration, password change and reset, and nothing is written.
func TestCommonPasswordRefusedOverHTTP(t *testing.T) {
	s := start(t, t.TempDir())
	r := s.do("POST", "/api/auth/register", "", `{"email":"first@example.com","name":"F","password":"Password123"}`)
	if r.Status != 400 || !strings.Contains(r.Error.Fields["password"], "most common") {
		t.Fatalf("register with a common password: %+v", r)
	}
	op, trader := s.accounts()
	if r := s.do("POST", "/api/auth/password", op, `{"current_password":"operator-pass","new_password":"qwertyuiop"}`); r.Status != 400 || r.Error.Fields["new_password"] == "" {
		t.Fatalf("change to a common password: %+v", r)
	}
	var users struct {
		Users []struct{ ID, Email string }
	}
	s.into(s.do("GET", "/api/users", op, ""), &users)
	id := ""
	for _, u := range users.Users {
		if u.Email == "t@example.com" {
			id = u.ID
		}
	}
	if r := s.do("POST", "/api/users/"+id+"/password", op, `{"new_password":"trustno1"}`); r.Status != 400 || r.Error.Fields["new_password"] == "" {
		t.Fatalf("reset to a common password: %+v", r)
	}
	if r := s.do("POST", "/api/users", op, `{"email":"x@example.com","name":"X","password":"football","role":"trader"}`); r.Status != 400 {
		t.Fatalf("create with a common password: %+v", r)
	}
	// Nothing changed: both still sign in with their passwords.
	s.login("op@example.com", "operator-pass")
	s.login("t@example.com", "trader-pass")
	_ = trader
}
