package auth

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

func TestSessionHasAnAbsoluteLifetime(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	s.SetSessionMaxAge(3 * time.Hour)
	s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	token, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-1", "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ { // in use every 35 minutes: the sliding timeout never bites
		clock.t = clock.t.Add(35 * time.Minute)
		if _, err := s.Authenticate(ctx, token); err != nil {
			t.Fatalf("after %d uses: %v", i+1, err)
		}
	}
	clock.t = clock.t.Add(6 * time.Minute) // 3h01m after sign-in
	if _, err := s.Authenticate(ctx, token); domain.ErrorMessage(err) != "Session expired; please sign in again" {
		t.Fatalf("past the absolute lifetime: err = %v", err)
	}
}

func TestDisabledAccountCannotSignIn(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	op, _ := s.Register(ctx, NewUser{Email: "op@example.com", Name: "Op", Password: "kestrel-pass-1"})
	tr, _ := s.CreateUser(ctx, NewUser{Email: "t@example.com", Name: "T", Password: "kestrel-pass-2"})
	token, _, _ := s.Login(ctx, "t@example.com", "kestrel-pass-2", "10.0.0.1")
	var ended []Ended
	s.OnSessionsEnded(func(e Ended) { ended = append(ended, e) })

	yes := true
	if _, err := s.UpdateUser(ctx, op, tr.ID, UserChange{Disabled: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, token); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("disabled user's token: err = %v, want unauthorized", err)
	}
	_, _, err := s.Login(ctx, "t@example.com", "kestrel-pass-2", "10.0.0.1")
	if domain.ErrorCode(err) != domain.EForbidden || domain.ErrorMessage(err) != "This account is disabled; ask an operator to enable it" {
		t.Fatalf("disabled login: err = %v", err)
	}
	if _, _, err := s.Login(ctx, "t@example.com", "wrong-pass", "10.0.0.1"); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("a wrong password must not reveal that the account is disabled: %v", err)
	}
	if len(ended) != 1 || ended[0].UserID != tr.ID || ended[0].KeepSessionID != "" {
		t.Fatalf("sessions ended = %+v", ended)
	}
}

func TestOperatorRules(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	op, _ := s.Register(ctx, NewUser{Email: "op@example.com", Name: "Op", Password: "kestrel-pass-1"})
	op2, _ := s.CreateUser(ctx, NewUser{Email: "op2@example.com", Name: "Op2", Password: "kestrel-pass-1", Role: "operator"})
	yes, trader := true, domain.RoleTrader
	if _, err := s.UpdateUser(ctx, op, op.ID, UserChange{Disabled: &yes}); domain.ErrorMessage(err) != "You cannot disable your own account" {
		t.Fatalf("self-disable: %v", err)
	}
	if _, err := s.UpdateUser(ctx, op, op2.ID, UserChange{Disabled: &yes}); err != nil {
		t.Fatalf("disable the second operator: %v", err)
	}
	if _, err := s.UpdateUser(ctx, op2, op.ID, UserChange{Disabled: &yes}); domain.ErrorMessage(err) != "The last enabled operator cannot be disabled" {
		t.Fatalf("disable the last enabled operator: %v", err)
	}
	if _, err := s.UpdateUser(ctx, op, op.ID, UserChange{Role: &trader}); domain.ErrorMessage(err) != "The last operator cannot be demoted" {
		t.Fatalf("demote the last enabled operator: %v", err)
	}
	if u, _ := s.store.UserByID(ctx, op.ID); u.Role != domain.RoleOperator || u.Disabled {
		t.Fatalf("refused changes were written: %+v", u)
	}
}

func TestChangePasswordKeepsOnlyThisSession(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	u, _ := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	here, _, _ := s.Login(ctx, "a@example.com", "kestrel-pass-1", "10.0.0.1")
	there, _, _ := s.Login(ctx, "a@example.com", "kestrel-pass-1", "10.0.0.2")

	err := s.ChangePassword(ctx, u, here, "10.0.0.1", PasswordChange{CurrentPassword: "wrong-one", NewPassword: "kestrel-pass-2"})
	if de, ok := err.(*domain.Error); !ok || de.Fields["current_password"] != "Current password is incorrect" {
		t.Fatalf("wrong current password: %v", err)
	}
	err = s.ChangePassword(ctx, u, here, "10.0.0.1", PasswordChange{CurrentPassword: "kestrel-pass-1", NewPassword: "short"})
	if de, ok := err.(*domain.Error); !ok || de.Fields["new_password"] != "Password must be at least 8 characters" {
		t.Fatalf("short new password: %v", err)
	}
	if err := s.ChangePassword(ctx, u, here, "10.0.0.1", PasswordChange{CurrentPassword: "kestrel-pass-1", NewPassword: "kestrel-pass-2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, here); err != nil {
		t.Fatalf("the session that changed the password: %v", err)
	}
	if _, err := s.Authenticate(ctx, there); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("the other session: err = %v, want unauthorized", err)
	}
	if _, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-2", "10.0.0.3"); err != nil {
		t.Fatalf("login with the new password: %v", err)
	}
}
