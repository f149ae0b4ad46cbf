package auth

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/store/sqlite"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

func newService(t *testing.T) (*Service, *fakeClock) {
	bcryptCost = 4 // the cost's purpose is slowness; tests need speed
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := &fakeClock{t: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)}
	return NewService(s, c, time.Hour), c
}

func TestSessionExpiresAndSlides(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	if _, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"}); err != nil {
		t.Fatal(err)
	}
	token, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-1", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(40 * time.Minute) // past half-life: use extends to 40m+1h
	if _, err := s.Authenticate(ctx, token); err != nil {
		t.Fatalf("at 40m: %v", err)
	}
	clock.t = clock.t.Add(59 * time.Minute) // 99m after login, 59m after last use
	if _, err := s.Authenticate(ctx, token); err != nil {
		t.Fatalf("sliding session expired early: %v", err)
	}
	clock.t = clock.t.Add(61 * time.Minute)
	_, err = s.Authenticate(ctx, token)
	if domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("after an idle hour: err = %v, want unauthorized", err)
	}
}

func TestTokenIsStoredHashed(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	u, _ := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	token, err := s.OpenSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.store.SessionByHash(ctx, token); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatal("the raw token must not be a stored key")
	}
	if _, err := s.store.SessionByHash(ctx, hashToken(token)); err != nil {
		t.Fatalf("hashed token not stored: %v", err)
	}
}

func TestRateLimitWindowResets(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	for i := 0; i < maxFailuresPerAccount; i++ {
		s.Login(ctx, "a@example.com", "nope-nope", "10.0.0.1")
	}
	if _, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-1", "10.0.0.1"); domain.ErrorCode(err) != domain.ETooMany {
		t.Fatalf("locked account from the guessing address: err = %v, want rate_limited", err)
	}
	clock.t = clock.t.Add(failureWindow)
	if _, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-1", "10.0.0.1"); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

func TestFailuresFromOneAddressDoNotLockTheAccountElsewhere(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	s.Register(ctx, NewUser{Email: "ops@example.com", Name: "Ops", Password: "kestrel-pass-1"})
	for i := 0; i < 3*maxFailuresPerAccount; i++ {
		s.Login(ctx, "ops@example.com", "nope-nope", "10.6.6.6")
	}
	if _, _, err := s.Login(ctx, "ops@example.com", "kestrel-pass-1", "10.6.6.6"); domain.ErrorCode(err) != domain.ETooMany {
		t.Fatalf("the attacker's address: err = %v, want rate_limited", err)
	}
	if _, _, err := s.Login(ctx, "ops@example.com", "kestrel-pass-1", "10.0.0.2"); err != nil {
		t.Fatalf("the operator from another address: %v, want a session", err)
	}
}

func TestRateLimitPerAddress(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	for i := 0; i < maxFailuresPerAddress; i++ {
		s.Login(ctx, "x"+string(rune('a'+i))+"@example.com", "whatever1", "10.0.0.9")
	}
	if _, _, err := s.Login(ctx, "new@example.com", "whatever1", "10.0.0.9"); domain.ErrorCode(err) != domain.ETooMany {
		t.Fatalf("spraying address: err = %v, want rate_limited", err)
	}
}

func TestPasswordHashing(t *testing.T) {
	bcryptCost = 4
	h, err := HashPassword("s3cret-pass")
	if err != nil {
		t.Fatal(err)
	}
	if h == "s3cret-pass" || !CheckPassword(h, "s3cret-pass") || CheckPassword(h, "other-pass") {
		t.Fatalf("hash %q does not verify correctly", h)
	}
}

// Setup's registration_open follows Register's own rules, so the sign-in
// screen offers "Create one" only when a registration would be accepted.
func TestSetupSaysWhetherRegistrationIsOpen(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	want := func(open bool) {
		t.Helper()
		st, err := s.SetupState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.RegistrationOpen != open {
			t.Fatalf("setup = %+v, want registration_open %v", st, open)
		}
	}
	s.RequireFirstOperatorFromCLI(true)
	want(false) // the first operator comes from the CLI
	s.RequireFirstOperatorFromCLI(false)
	want(true) // the first visitor becomes the operator
	if _, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"}); err != nil {
		t.Fatal(err)
	}
	want(false) // switch off by default
	if err := s.SetRegistrationOpen(ctx, true); err != nil {
		t.Fatal(err)
	}
	want(true)
}
