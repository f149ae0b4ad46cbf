package auth

import (
	"context"
	"strings"
	"testing"

	"kestrel/domain"
)

func TestCommonPasswordList(t *testing.T) {
	if n := len(commonPasswords()); n != 10_000 {
		t.Fatalf("list has %d passwords, want 10000", n)
	}
	for _, pw := range []string{"password", "Password1", "QWERTYUIOP", "iloveyou", "sunshine", "football"} {
		if !isCommonPassword(pw) {
			t.Errorf("%q is not found", pw)
		}
	}
	for _, pw := range []string{"kestrel-pass-1", "correct horse 42", "Tr4d3r!Blue-Heron"} {
		if isCommonPassword(pw) {
			t.Errorf("%q is found", pw)
		}
	}
}

// Every way a password is set refuses a common one, naming the field.
func TestCommonPasswordsRefused(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	_, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "Password1"})
	wantCommonField(t, err, "password")
	op, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateUser(ctx, NewUser{Email: "b@example.com", Name: "B", Password: "baseball", Role: "trader"})
	wantCommonField(t, err, "password")
	tr, err := s.CreateUser(ctx, NewUser{Email: "b@example.com", Name: "B", Password: "kestrel-pass-2", Role: "trader"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.ResetPassword(ctx, op, tr.ID, "whatever")
	wantCommonField(t, err, "new_password")
	token, _ := s.OpenSession(ctx, op.ID)
	err = s.ChangePassword(ctx, op, token, "127.0.0.1", PasswordChange{CurrentPassword: "kestrel-pass-1", NewPassword: "superman"})
	wantCommonField(t, err, "new_password")
}

func wantCommonField(t *testing.T, err error, field string) {
	t.Helper()
	var de *domain.Error
	if e, ok := err.(*domain.Error); ok {
		de = e
	}
	if de == nil || !strings.Contains(de.Fields[field], "most common") {
		t.Fatalf("error %v, want field %s naming a common password", err, field)
	}
}
