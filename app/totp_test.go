package app_test

import (
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// The platform switch makes operators (not traders) sign in with TOTP; it and
// the sealed secret survive a restart.
func TestOperatorTOTPRequiredBySetting(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir)
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"system":{"security":{"enableTwoFactor":true}}}`); r.Status != 200 {
		t.Fatalf("save setting: %+v", r)
	}
	r := s.do("POST", "/api/auth/login", "", `{"email":"op@example.com","password":"operator-pass"}`)
	secret := r.Error.Fields["totp_secret"]
	if r.Status != 403 || secret == "" {
		t.Fatalf("operator without TOTP = %+v, want 403 with a key to enrol", r)
	}
	s.login("t@example.com", "trader-pass") // traders are not required to
	code, _ := totp.GenerateCode(secret, time.Now())
	r = s.do("POST", "/api/auth/login", "", `{"email":"op@example.com","password":"operator-pass","code":"`+code+`"}`)
	var out struct {
		Recovery []string `json:"recovery_codes"`
	}
	if s.into(r, &out); r.Status != 200 || len(out.Recovery) != 10 {
		t.Fatalf("enrolling sign-in = %+v", r)
	}
	s.app.Close()

	s2 := start(t, dir)
	if r := s2.do("POST", "/api/auth/login", "", `{"email":"op@example.com","password":"operator-pass"}`); r.Status != 401 || r.Error.Fields["code"] == "" {
		t.Fatalf("after restart without a code = %+v, want 401 asking for it", r)
	}
	next, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	if r := s2.do("POST", "/api/auth/login", "", `{"email":"op@example.com","password":"operator-pass","code":"`+next+`"}`); r.Status != 200 {
		t.Fatalf("after restart with a code = %+v", r)
	}
}
