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

	r := a.do("POST", "/api/auth/register", "", `{"email":"t@example.com","name":"Tom","password":"kestrel-pass-1"}`)
	if r.Status != http.StatusForbidden || !strings.Contains(r.Error.Message, "Self-registration is disabled") {
		t.Fatalf("second registration = %d %s, want 403", r.Status, r.Raw)
	}

	if r := a.do("PUT", "/api/users/registration", opToken, `{"enabled":true}`); r.Status != 200 {
		t.Fatalf("enable registration: %d %s", r.Status, r.Raw)
	}
	tok, tr := a.register("t@example.com", "Tom", "kestrel-pass-1")
	if tr.Role != domain.RoleTrader {
		t.Fatalf("second user role = %s, want trader", tr.Role)
	}
	if r := a.do("GET", "/api/users", tok, ""); r.Status != http.StatusForbidden {
		t.Fatalf("trader listing users = %d, want 403", r.Status)
	}
	r = a.do("POST", "/api/auth/register", "", `{"email":"t@example.com","name":"Tom","password":"kestrel-pass-1"}`)
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
	for _, route := range []string{"GET /api/auth/me", "POST /api/auth/logout", "POST /api/auth/password", "PATCH /api/users/x", "POST /api/users/x/password", "GET /api/users", "POST /api/users", "GET /api/audit", "PUT /api/users/registration"} {
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

func TestChangeOwnPassword(t *testing.T) {
	a := newAPI(t)
	here, _ := a.register("a@example.com", "Ann", "secret-pass")
	there := a.login("a@example.com", "secret-pass")
	tests := []struct {
		name, body string
		wantStatus int
		wantFields map[string]string
	}{
		{"wrong current", `{"current_password":"not-it-at-all","new_password":"new-secret"}`, 400, map[string]string{"current_password": "Current password is incorrect"}},
		{"missing both", `{}`, 400, map[string]string{"current_password": "Current password is required", "new_password": "Password must be at least 8 characters"}},
		{"too short", `{"current_password":"secret-pass","new_password":"short"}`, 400, map[string]string{"new_password": "Password must be at least 8 characters"}},
		{"unchanged", `{"current_password":"secret-pass","new_password":"secret-pass"}`, 400, map[string]string{"new_password": "New password must differ from the current password"}},
		{"unknown field", `{"current_password":"secret-pass","new_password":"new-secret","x":1}`, 400, nil},
		{"changed", `{"current_password":"secret-pass","new_password":"new-secret"}`, 200, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := a.do("POST", "/api/auth/password", here, tc.body)
			if r.Status != tc.wantStatus {
				t.Fatalf("status %d %s, want %d", r.Status, r.Raw, tc.wantStatus)
			}
			for f, m := range tc.wantFields {
				if r.Error.Fields[f] != m {
					t.Errorf("field %s = %q, want %q", f, r.Error.Fields[f], m)
				}
			}
		})
	}
	if r := a.do("GET", "/api/auth/me", here, ""); r.Status != 200 {
		t.Fatalf("this session after the change = %d, want 200", r.Status)
	}
	if r := a.do("GET", "/api/auth/me", there, ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("the other session after the change = %d, want 401", r.Status)
	}
	a.login("a@example.com", "new-secret")
	audit := a.do("GET", "/api/audit?limit=50", here, "")
	if !strings.Contains(string(audit.Data), "changed own password") {
		t.Errorf("audit log lacks the change: %s", audit.Data)
	}
}

// twoUsers makes an operator and a trader, returning their tokens and the trader.
func (a *testAPI) twoUsers() (op string, opUser domain.User, trader string, tr domain.User) {
	a.t.Helper()
	op, opUser = a.register("op@example.com", "Op", "operator-pass")
	r := a.do("POST", "/api/users", op, `{"email":"t@example.com","name":"Tess","password":"trader-pass"}`)
	if r.Status != http.StatusCreated {
		a.t.Fatalf("create trader = %d %s", r.Status, r.Raw)
	}
	json.Unmarshal(r.Data, &tr)
	return op, opUser, a.login("t@example.com", "trader-pass"), tr
}

func TestOperatorDisablesAndEnablesAUser(t *testing.T) {
	a := newAPI(t)
	op, opUser, trader, tr := a.twoUsers()
	if r := a.do("PATCH", "/api/users/"+tr.ID, trader, `{"disabled":true}`); r.Status != http.StatusForbidden {
		t.Fatalf("trader disabling = %d, want 403", r.Status)
	}
	r := a.do("PATCH", "/api/users/"+tr.ID, op, `{"disabled":true}`)
	if r.Status != 200 || !strings.Contains(string(r.Data), `"disabled":true`) {
		t.Fatalf("disable = %d %s", r.Status, r.Raw)
	}
	if r := a.do("GET", "/api/auth/me", trader, ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("disabled user's next call = %d, want 401", r.Status)
	}
	r = a.do("POST", "/api/auth/login", "", `{"email":"t@example.com","password":"trader-pass"}`)
	if r.Status != http.StatusForbidden || r.Error.Message != "This account is disabled; ask an operator to enable it" {
		t.Fatalf("disabled login = %d %s", r.Status, r.Raw)
	}
	list := a.do("GET", "/api/users", op, "")
	if !strings.Contains(string(list.Data), `"email":"t@example.com","name":"Tess","role":"trader"`) || !strings.Contains(string(list.Data), `"disabled":true`) {
		t.Fatalf("list shows no status: %s", list.Data)
	}
	if r := a.do("PATCH", "/api/users/"+tr.ID, op, `{"disabled":false}`); r.Status != 200 {
		t.Fatalf("enable = %d %s", r.Status, r.Raw)
	}
	a.login("t@example.com", "trader-pass")

	for _, c := range []struct{ name, id, body, want string }{
		{"self", opUser.ID, `{"disabled":true}`, "You cannot disable your own account"},
		{"nothing", tr.ID, `{}`, "Nothing to change: send role and/or disabled"},
	} {
		r := a.do("PATCH", "/api/users/"+c.id, op, c.body)
		if r.Status/100 != 4 || r.Error.Message != c.want {
			t.Errorf("%s = %d %s, want %q", c.name, r.Status, r.Raw, c.want)
		}
	}
	if r := a.do("PATCH", "/api/users/"+opUser.ID, op, `{"disabled":true}`); r.Status != http.StatusConflict {
		t.Errorf("self-disable = %d, want 409", r.Status)
	}
	audit := a.do("GET", "/api/audit?limit=50", op, "")
	for _, want := range []string{"disabled t@example.com", "enabled t@example.com"} {
		if !strings.Contains(string(audit.Data), want) {
			t.Errorf("audit log lacks %q", want)
		}
	}
}

func TestLastEnabledOperatorStays(t *testing.T) {
	a := newAPI(t)
	op, opUser, _, tr := a.twoUsers()
	if r := a.do("PATCH", "/api/users/"+tr.ID, op, `{"role":"operator"}`); r.Status != 200 {
		t.Fatalf("promote = %d %s", r.Status, r.Raw)
	}
	op2 := a.login("t@example.com", "trader-pass")
	if r := a.do("PATCH", "/api/users/"+opUser.ID, op2, `{"disabled":true}`); r.Status != 200 {
		t.Fatalf("disable the first operator = %d %s", r.Status, r.Raw)
	}
	r := a.do("PATCH", "/api/users/"+tr.ID, op2, `{"role":"trader"}`)
	if r.Status != http.StatusConflict || r.Error.Message != "The last operator cannot be demoted" {
		t.Fatalf("demote the last enabled operator = %d %s", r.Status, r.Raw)
	}
	if r := a.do("GET", "/api/users", op, ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("disabled operator's token = %d, want 401", r.Status)
	}
}

func TestOperatorResetsAPassword(t *testing.T) {
	a := newAPI(t)
	op, opUser, trader, tr := a.twoUsers()
	tests := []struct {
		name, token, id, body string
		wantStatus            int
		wantMessage           string
	}{
		{"trader", trader, tr.ID, `{"new_password":"brand-new-pass"}`, 403, "This action requires the operator role"},
		{"too short", op, tr.ID, `{"new_password":"short"}`, 400, "Password must be at least 8 characters"},
		{"missing user", op, "missing", `{"new_password":"brand-new-pass"}`, 404, "User not found"},
		{"own password", op, opUser.ID, `{"new_password":"brand-new-pass"}`, 409, "Change your own password with Change password, which asks for the current one"},
		{"reset", op, tr.ID, `{"new_password":"brand-new-pass"}`, 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := a.do("POST", "/api/users/"+tc.id+"/password", tc.token, tc.body)
			if r.Status != tc.wantStatus || r.Error.Message != tc.wantMessage {
				t.Fatalf("= %d %s, want %d %q", r.Status, r.Raw, tc.wantStatus, tc.wantMessage)
			}
		})
	}
	if r := a.do("GET", "/api/auth/me", trader, ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("trader's session after the reset = %d, want 401", r.Status)
	}
	a.login("t@example.com", "brand-new-pass")
	if audit := a.do("GET", "/api/audit?limit=50", op, ""); !strings.Contains(string(audit.Data), "reset password of t@example.com") {
		t.Errorf("audit log lacks the reset: %s", audit.Data)
	}
}
