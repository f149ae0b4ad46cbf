package httpapi_test

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"kestrel/settings"
)

// withSealer gives the test server's accounts a key to seal TOTP secrets with.
func withSealer(t *testing.T, a *testAPI) {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	s, err := settings.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	a.auth.SetSealer(s)
}

func (a *testAPI) enrolTOTP(token string) (secret string, recovery []string) {
	a.t.Helper()
	r := a.do("POST", "/api/auth/totp/setup", token, "")
	var setup struct {
		Secret string `json:"secret"`
		URI    string `json:"otpauth_uri"`
	}
	if json.Unmarshal(r.Data, &setup); r.Status != 200 || setup.Secret == "" || !strings.HasPrefix(setup.URI, "otpauth://totp/Kestrel:") {
		a.t.Fatalf("setup = %d %s", r.Status, r.Raw)
	}
	code, _ := totp.GenerateCode(setup.Secret, time.Now())
	r = a.do("POST", "/api/auth/totp/confirm", token, `{"code":"`+code+`"}`)
	var out struct {
		Recovery []string `json:"recovery_codes"`
	}
	if json.Unmarshal(r.Data, &out); r.Status != 200 || len(out.Recovery) != 10 {
		a.t.Fatalf("confirm = %d %s", r.Status, r.Raw)
	}
	return setup.Secret, out.Recovery
}

// wrongCode is a 6-digit code valid in none of the accepted steps now.
func wrongCode(secret string) string {
	valid := map[string]bool{}
	for d := -1; d <= 1; d++ {
		c, _ := totp.GenerateCode(secret, time.Now().Add(time.Duration(d)*30*time.Second))
		valid[c] = true
	}
	for _, c := range []string{"000000", "111111", "222222", "333333"} {
		if !valid[c] {
			return c
		}
	}
	panic("unreachable")
}

func loginBody(email, password, code string) string {
	return `{"email":"` + email + `","password":"` + password + `","code":"` + code + `"}`
}

func TestTOTPSignIn(t *testing.T) {
	a := newAPI(t)
	withSealer(t, a)
	tok, _ := a.register("ops@example.com", "Olga", "correct horse")

	// A started but unconfirmed set-up changes nothing about signing in.
	if r := a.do("POST", "/api/auth/totp/setup", tok, ""); r.Status != 200 {
		t.Fatalf("setup = %d %s", r.Status, r.Raw)
	}
	a.login("ops@example.com", "correct horse")
	if r := a.do("POST", "/api/auth/totp/confirm", tok, `{"code":"12345"}`); r.Status != http.StatusBadRequest || r.Error.Fields["code"] == "" {
		t.Fatalf("confirm with a bad code = %d %s, want 400 on code (401 would end the session in the client)", r.Status, r.Raw)
	}
	secret, recovery := a.enrolTOTP(tok)
	var st struct {
		Enabled bool `json:"enabled"`
		Left    int  `json:"recovery_codes_left"`
	}
	if r := a.do("GET", "/api/auth/totp", tok, ""); json.Unmarshal(r.Data, &st) != nil || !st.Enabled || st.Left != 10 {
		t.Fatalf("status = %s", r.Raw)
	}
	if r := a.do("POST", "/api/auth/totp/setup", tok, ""); r.Status != http.StatusConflict {
		t.Fatalf("setup while on = %d %s, want 409", r.Status, r.Raw)
	}

	// The password alone no longer opens a session.
	for _, body := range []string{
		`{"email":"ops@example.com","password":"correct horse"}`,
		loginBody("ops@example.com", "correct horse", wrongCode(secret)),
	} {
		r := a.do("POST", "/api/auth/login", "", body)
		if r.Status != http.StatusUnauthorized || r.Error.Fields["code"] == "" || strings.Contains(r.Raw, "token") {
			t.Fatalf("login %s = %d %s, want 401 asking for the code", body, r.Status, r.Raw)
		}
	}
	// The confirming code's step is used; the next step's code signs in, once.
	next, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	r := a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", next))
	var out struct{ Token string }
	if json.Unmarshal(r.Data, &out); r.Status != 200 || out.Token == "" {
		t.Fatalf("login with a code = %d %s", r.Status, r.Raw)
	}
	if r := a.do("GET", "/api/auth/me", out.Token, ""); r.Status != 200 {
		t.Fatalf("me with the new session = %d", r.Status)
	}
	r = a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", next))
	if r.Status != http.StatusUnauthorized || !strings.Contains(r.Error.Message, "already used") {
		t.Fatalf("replayed code = %d %s, want 401", r.Status, r.Raw)
	}

	// A recovery code works once, typed in any case with or without dashes.
	typed := strings.ToUpper(strings.ReplaceAll(recovery[3], "-", ""))
	if r := a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", typed)); r.Status != 200 {
		t.Fatalf("recovery code = %d %s", r.Status, r.Raw)
	}
	if r := a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", recovery[3])); r.Status != http.StatusUnauthorized {
		t.Fatalf("recovery code reused = %d %s, want 401", r.Status, r.Raw)
	}
	if r := a.do("GET", "/api/auth/totp", tok, ""); json.Unmarshal(r.Data, &st) != nil || st.Left != 9 {
		t.Fatalf("status after a recovery code = %s", r.Raw)
	}

	// Turning it off takes the password and a code.
	if r := a.do("POST", "/api/auth/totp/disable", tok, `{"password":"wrong-pass","code":"`+recovery[0]+`"}`); r.Status != http.StatusBadRequest || r.Error.Fields["password"] == "" {
		t.Fatalf("disable with a wrong password = %d %s", r.Status, r.Raw)
	}
	if r := a.do("POST", "/api/auth/totp/disable", tok, `{"password":"correct horse","code":""}`); r.Status != http.StatusBadRequest || r.Error.Fields["code"] == "" {
		t.Fatalf("disable without a code = %d %s", r.Status, r.Raw)
	}
	if r := a.do("POST", "/api/auth/totp/disable", tok, `{"password":"correct horse","code":"`+recovery[0]+`"}`); r.Status != 200 {
		t.Fatalf("disable = %d %s", r.Status, r.Raw)
	}
	a.login("ops@example.com", "correct horse")
}

func TestTOTPCodeGuessesAreThrottled(t *testing.T) {
	a := newAPI(t)
	withSealer(t, a)
	tok, _ := a.register("ops@example.com", "Olga", "correct horse")
	secret, _ := a.enrolTOTP(tok)
	bad := wrongCode(secret)
	for range 5 {
		a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", bad))
		// The right password alone must not clear the failed codes.
		if r := a.do("POST", "/api/auth/login", "", `{"email":"ops@example.com","password":"correct horse"}`); r.Status == 200 {
			t.Fatalf("password alone signed in: %s", r.Raw)
		}
	}
	next, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	if r := a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", next)); r.Status != http.StatusTooManyRequests {
		t.Fatalf("right code after 5 wrong ones = %d %s, want 429", r.Status, r.Raw)
	}
}

func TestOperatorMustEnrolWhenRequired(t *testing.T) {
	a := newAPI(t)
	withSealer(t, a)
	a.register("ops@example.com", "Olga", "correct horse")
	a.auth.SetRequireOperatorTOTP(true)

	r := a.do("POST", "/api/auth/login", "", `{"email":"ops@example.com","password":"correct horse"}`)
	secret := r.Error.Fields["totp_secret"]
	if r.Status != http.StatusForbidden || secret == "" || !strings.HasPrefix(r.Error.Fields["totp_uri"], "otpauth://") || strings.Contains(r.Raw, "token") {
		t.Fatalf("operator without TOTP = %d %s, want 403 with a key to enrol", r.Status, r.Raw)
	}
	// Asking again shows the same key (the one possibly scanned already).
	if r := a.do("POST", "/api/auth/login", "", `{"email":"ops@example.com","password":"correct horse"}`); r.Error.Fields["totp_secret"] != secret {
		t.Fatalf("second answer gave another key: %s", r.Raw)
	}
	code, _ := totp.GenerateCode(secret, time.Now())
	r = a.do("POST", "/api/auth/login", "", loginBody("ops@example.com", "correct horse", code))
	var out struct {
		Token    string   `json:"token"`
		Recovery []string `json:"recovery_codes"`
	}
	if json.Unmarshal(r.Data, &out); r.Status != 200 || out.Token == "" || len(out.Recovery) != 10 {
		t.Fatalf("enrolling sign-in = %d %s", r.Status, r.Raw)
	}
	// From now on it is an ordinary second factor.
	if r := a.do("POST", "/api/auth/login", "", `{"email":"ops@example.com","password":"correct horse"}`); r.Status != http.StatusUnauthorized || r.Error.Fields["code"] == "" {
		t.Fatalf("after enrolment without a code = %d %s", r.Status, r.Raw)
	}
}

// An operator resets a trader's second factor (a lost phone): audited, the
// trader then signs in with the password alone; traders cannot, nor an
// operator their own (issue 33, items 5 and 12).
func TestOperatorResetsASecondFactor(t *testing.T) {
	a := newAPI(t)
	withSealer(t, a)
	op, opUser, trader, tr := a.twoUsers()
	a.enrolTOTP(trader)
	if r := a.do("POST", "/api/auth/login", "", `{"email":"t@example.com","password":"trader-pass"}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("password alone before the reset = %d %s", r.Status, r.Raw)
	}
	for _, c := range []struct {
		token, id string
		want      int
	}{{trader, tr.ID, 403}, {op, opUser.ID, 409}, {op, "missing", 404}, {op, tr.ID, 200}, {op, tr.ID, 409}} {
		if r := a.do("POST", "/api/users/"+c.id+"/totp/reset", c.token, ""); r.Status != c.want {
			t.Fatalf("reset of %s = %d %s, want %d", c.id, r.Status, r.Raw, c.want)
		}
	}
	a.login("t@example.com", "trader-pass")
	if audit := a.do("GET", "/api/audit?limit=50", op, ""); !strings.Contains(string(audit.Data), "reset the two-factor authentication of t@example.com") {
		t.Errorf("audit log lacks the reset: %s", audit.Data)
	}
}
