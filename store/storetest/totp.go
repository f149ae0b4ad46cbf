package storetest

import (
	"context"
	"errors"
	"testing"

	"kestrel/domain"
)

func testTOTP(t *testing.T, s domain.Store) {
	ctx := context.Background()
	addUser(t, s, "u1", "a@example.com", domain.RoleOperator)
	_, err := s.TOTPByUser(ctx, "u1")
	wantCode(t, err, domain.ENotFound)
	if ok, err := s.UseTOTPStep(ctx, "u1", 5); err != nil || ok {
		t.Fatalf("step without enrolment = %v, %v; want refused", ok, err)
	}
	if err := s.PutPendingTOTP(ctx, "u1", "sealed-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPendingTOTP(ctx, "u1", "sealed-2"); err != nil { // a new set-up replaces an unconfirmed one
		t.Fatal(err)
	}
	got, err := s.TOTPByUser(ctx, "u1")
	if err != nil || got.Secret != "sealed-2" || got.ConfirmedAt != nil {
		t.Fatalf("pending = %+v, %v", got, err)
	}
	if ok, _ := s.UseTOTPStep(ctx, "u1", 5); ok {
		t.Fatal("a pending enrolment accepted a code step")
	}
	if err := s.ConfirmTOTP(ctx, "u1", at, 100, []string{"r1", "r2"}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.ConfirmTOTP(ctx, "u1", at, 101, nil), domain.EConflict)
	wantCode(t, s.PutPendingTOTP(ctx, "u1", "sealed-3"), domain.EConflict)
	got, err = s.TOTPByUser(ctx, "u1")
	if err != nil || got.Secret != "sealed-2" || got.ConfirmedAt == nil || !got.ConfirmedAt.Equal(at) || got.LastStep != 100 || got.RecoveryLeft != 2 {
		t.Fatalf("confirmed = %+v, %v", got, err)
	}
	for _, c := range []struct {
		step int64
		want bool
	}{{100, false}, {99, false}, {101, true}, {101, false}} {
		if ok, err := s.UseTOTPStep(ctx, "u1", c.step); err != nil || ok != c.want {
			t.Fatalf("UseTOTPStep(%d) = %v, %v; want %v", c.step, ok, err, c.want)
		}
	}
	if ok, err := s.UseRecoveryCode(ctx, "u1", "r1", at); err != nil || !ok {
		t.Fatalf("first use = %v, %v", ok, err)
	}
	if ok, _ := s.UseRecoveryCode(ctx, "u1", "r1", at); ok {
		t.Fatal("a recovery code was accepted twice")
	}
	if ok, _ := s.UseRecoveryCode(ctx, "u1", "nope", at); ok {
		t.Fatal("an unknown recovery code was accepted")
	}
	if got, _ := s.TOTPByUser(ctx, "u1"); got.RecoveryLeft != 1 {
		t.Fatalf("recovery left = %d, want 1", got.RecoveryLeft)
	}
	// A key rotation re-seals every secret in one transaction; a failure
	// part-way changes none.
	if n, err := s.ResealTOTP(ctx, func(id, sealed string) (string, error) { return sealed + "/" + id, nil }); err != nil || n != 1 {
		t.Fatalf("reseal = %d, %v; want 1", n, err)
	}
	if got, _ := s.TOTPByUser(ctx, "u1"); got.Secret != "sealed-2/u1" || got.LastStep != 101 || got.ConfirmedAt == nil {
		t.Fatalf("resealed = %+v", got)
	}
	if _, err := s.ResealTOTP(ctx, func(string, string) (string, error) { return "", errors.New("no key") }); err == nil {
		t.Fatal("a failed reseal reported success")
	}
	if got, _ := s.TOTPByUser(ctx, "u1"); got.Secret != "sealed-2/u1" {
		t.Fatalf("a failed reseal changed the secret to %q", got.Secret)
	}
	if err := s.DeleteTOTP(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.TOTPByUser(ctx, "u1")
	wantCode(t, err, domain.ENotFound)
	if ok, _ := s.UseRecoveryCode(ctx, "u1", "r2", at); ok {
		t.Fatal("a recovery code outlived its enrolment")
	}
}
