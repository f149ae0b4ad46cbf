package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"kestrel/domain"
)

func TestFirstAccountIsOperatorThenRegistrationCloses(t *testing.T) {
	a := newAPI(t)
	opToken, op := a.register("Ops@Example.com", "Olga", "correct horse")
	if op.Role != domain.RoleOperator || op.Email != "ops@example.com" || op.ID == "" || op.CreatedAt.IsZero() {
		t.Fatalf("first user = %+v, want an operator with a normalised email", op)
	}

	r := a.do("POST", "/api/auth/register", "", `{"email":"t@example.com","name":"Tom","password":"password1"}`)
	if r.Status != http.StatusForbidden || !strings.Contains(r.Error.Message, "Self-registration is disabled") {
		t.Fatalf("second registration = %d %s, want 403", r.Status, r.Raw)
	}

	if r := a.do("PUT", "/api/users/registration", opToken, `{"enabled":true}`); r.Status != 200 {
		t.Fatalf("enable registration: %d %s", r.Status, r.Raw)
	}
	tok, tr := a.register("t@example.com", "Tom", "password1")
	if tr.Role != domain.RoleTrader {
		t.Fatalf("second user role = %s, want trader", tr.Role)
	}
	if r := a.do("GET", "/api/users", tok, ""); r.Status != http.StatusForbidden {
		t.Fatalf("trader listing users = %d, want 403", r.Status)
	}
	r = a.do("POST", "/api/auth/register", "", `{"email":"t@example.com","name":"Tom","password":"password1"}`)
	if r.Status != http.StatusConflict {
		t.Fatalf("duplicate email = %d %s, want 409", r.Status, r.Raw)
	}
}

func TestRegisterValidation(t *testing.T) {
	a := newAPI(t)
	tests := []struct {
		name, body string
		wantFields map[string]string
	}{
		{"all missing", `{}`, map[string]string{"email": "Email is required", "name": "Name is required", "password": "Password must be at least 8 characters"}},
		{"bad email", `{"email":"nope","name":"N","password":"longenough"}`, map[string]string{"email": "Enter a valid email address"}},
		{"short password", `{"email":"a@b.co","name":"N","password":"short"}`, map[string]string{"password": "Password must be at least 8 characters"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := a.do("POST", "/api/auth/register", "", tc.body)
			if r.Status != http.StatusBadRequest || r.Success || r.Error.Code != "invalid" {
				t.Fatalf("status %d body %s, want 400 invalid", r.Status, r.Raw)
			}
			for f, m := range tc.wantFields {
				if r.Error.Fields[f] != m {
					t.Errorf("field %s = %q, want %q", f, r.Error.Fields[f], m)
				}
			}
			if len(r.Error.Fields) != len(tc.wantFields) {
				t.Errorf("fields = %v, want %v", r.Error.Fields, tc.wantFields)
			}
		})
	}
	if n, _ := a.store.CountUsers(t.Context()); n != 0 {
		t.Fatalf("invalid registrations created %d users", n)
	}
}

func TestLoginLogoutAndMe(t *testing.T) {
	a := newAPI(t)
	a.register("a@example.com", "Ann", "secret-pass")

	r := a.do("POST", "/api/auth/login", "", `{"email":"a@example.com","password":"wrong-pass"}`)
	if r.Status != http.StatusUnauthorized || r.Error.Message != "Invalid email or password" {
		t.Fatalf("bad password = %d %s", r.Status, r.Raw)
	}
	r = a.do("POST", "/api/auth/login", "", `{"email":"a@example.com","password":"secret-pass"}`)
	var out struct {
		Token string      `json:"token"`
		User  domain.User `json:"user"`
	}
	json.Unmarshal(r.Data, &out)
	if r.Status != 200 || out.Token == "" || out.User.LastLogin == nil || out.User.Name != "Ann" {
		t.Fatalf("login = %d %s", r.Status, r.Raw)
	}
	me := a.do("GET", "/api/auth/me", out.Token, "")
	if me.Status != 200 || !strings.Contains(string(me.Data), `"email":"a@example.com"`) || strings.Contains(me.Raw, "password") {
		t.Fatalf("me = %d %s", me.Status, me.Raw)
	}
	if r := a.do("POST", "/api/auth/logout", out.Token, ""); r.Status != 200 {
		t.Fatalf("logout = %d %s", r.Status, r.Raw)
	}
	if r := a.do("GET", "/api/auth/me", out.Token, ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("me after logout = %d, want 401", r.Status)
	}
}

func TestLoginRateLimitedPerAccount(t *testing.T) {
	a := newAPI(t)
	a.register("a@example.com", "Ann", "secret-pass")
	for i := 0; i < 5; i++ {
		if r := a.do("POST", "/api/auth/login", "", `{"email":"a@example.com","password":"bad-guess"}`); r.Status != 401 {
			t.Fatalf("attempt %d = %d", i, r.Status)
		}
	}
	r := a.do("POST", "/api/auth/login", "", `{"email":"a@example.com","password":"secret-pass"}`)
	if r.Status != http.StatusTooManyRequests || !strings.Contains(r.Error.Message, "Too many failed login attempts") {
		t.Fatalf("after 5 failures = %d %s, want 429 even with the right password", r.Status, r.Raw)
	}
}

func TestProtectedRoutesNeedToken(t *testing.T) {
	a := newAPI(t)
	for _, route := range []string{"GET /api/auth/me", "POST /api/auth/logout", "GET /api/users", "POST /api/users", "GET /api/audit", "PUT /api/users/registration"} {
		method, path, _ := strings.Cut(route, " ")
		for _, token := range []string{"", "not-a-real-token"} {
			r := a.do(method, path, token, "")
			if r.Status != http.StatusUnauthorized || r.Success || r.Error.Code != "unauthorized" {
				t.Errorf("%s with token %q = %d %s, want 401 envelope", route, token, r.Status, r.Raw)
			}
		}
	}
}

func TestOperatorManagesUsers(t *testing.T) {
	a := newAPI(t)
	op, _ := a.register("op@example.com", "Op", "operator-pass")
	r := a.do("POST", "/api/users", op, `{"email":"t@example.com","name":"Tess","password":"trader-pass","role":"trader"}`)
	if r.Status != http.StatusCreated {
		t.Fatalf("create user = %d %s", r.Status, r.Raw)
	}
	var u domain.User
	json.Unmarshal(r.Data, &u)
	if r := a.do("PATCH", "/api/users/"+u.ID, op, `{"role":"admin"}`); r.Status != 400 || r.Error.Fields["role"] == "" {
		t.Fatalf("bad role = %d %s", r.Status, r.Raw)
	}
	if r := a.do("PATCH", "/api/users/"+u.ID, op, `{"role":"operator"}`); r.Status != 200 || !strings.Contains(string(r.Data), `"role":"operator"`) {
		t.Fatalf("promote = %d %s", r.Status, r.Raw)
	}
	if r := a.do("PATCH", "/api/users/missing", op, `{"role":"trader"}`); r.Status != 404 {
		t.Fatalf("missing user = %d", r.Status)
	}
	trader := a.login("t@example.com", "trader-pass")
	if r := a.do("GET", "/api/users", trader, ""); r.Status != 200 {
		t.Fatalf("promoted user listing = %d", r.Status)
	}
	audit := a.do("GET", "/api/audit?limit=50", op, "")
	for _, want := range []string{"POST /api/users", "PATCH /api/users/" + u.ID, "POST /api/auth/login", "set role of t@example.com to operator"} {
		if !strings.Contains(string(audit.Data), want) {
			t.Errorf("audit log lacks %q: %s", want, audit.Data)
		}
	}
}

func TestLastOperatorCannotBeDemoted(t *testing.T) {
	a := newAPI(t)
	op, u := a.register("op@example.com", "Op", "operator-pass")
	if r := a.do("PATCH", "/api/users/"+u.ID, op, `{"role":"trader"}`); r.Status != http.StatusConflict {
		t.Fatalf("demote last operator = %d %s, want 409", r.Status, r.Raw)
	}
}
