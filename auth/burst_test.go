package auth

import (
	"context"
	"sync"
	"testing"

	"kestrel/domain"
)

// A burst of 40 concurrent wrong passwords against a limit of 5 lets exactly
// 5 password checks through: each attempt is reserved before bcrypt runs
// (issue 21, item 6).
func TestConcurrentBurstChecksAtMostTheLimit(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	if _, err := s.Register(ctx, NewUser{Email: "ops@example.com", Name: "Ops", Password: "kestrel-pass-1"}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	codes := map[string]int{}
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			_, _, err := s.Login(ctx, "ops@example.com", "wrong-password", "10.1.1.1")
			mu.Lock()
			codes[domain.ErrorCode(err)]++
			mu.Unlock()
		})
	}
	wg.Wait()
	// A 401 is a password check that ran; a 429 was refused before bcrypt.
	if codes[domain.EUnauthorized] != maxFailuresPerAccount || codes[domain.ETooMany] != 40-maxFailuresPerAccount {
		t.Fatalf("outcomes %v: want %d checked, %d refused", codes, maxFailuresPerAccount, 40-maxFailuresPerAccount)
	}
}

// A burst of correct sign-ins is never refused: attempts beyond the budget
// wait for the checks in flight instead.
func TestConcurrentCorrectLoginsAllSucceed(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	if _, err := s.Register(ctx, NewUser{Email: "ops@example.com", Name: "Ops", Password: "kestrel-pass-1"}); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 40)
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			_, _, err := s.Login(ctx, "ops@example.com", "kestrel-pass-1", "10.1.1.3")
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a correct sign-in in a burst: %v", err)
		}
	}
}

// A correct password gives its reserved attempt back: an operator signing
// in often from one address is never throttled by their own success.
func TestSuccessfulLoginsAreNotCountedAgainstTheAddress(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	s.Register(ctx, NewUser{Email: "ops@example.com", Name: "Ops", Password: "kestrel-pass-1"})
	for i := range 3 * maxFailuresPerAddress {
		if _, _, err := s.Login(ctx, "ops@example.com", "kestrel-pass-1", "10.1.1.2"); err != nil {
			t.Fatalf("login %d: %v", i, err)
		}
	}
}

// Registration attempts are limited per address and per email; only the
// first refusal of a window is marked for the audit log.
func TestRegistrationIsRateLimited(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	var refusals []error
	for i := range maxRegistrationsPerAddress + 3 {
		_, err := s.RegisterFrom(ctx, NewUser{Email: "u" + string(rune('a'+i)) + "@example.com", Name: "U", Password: "kestrel-pass-1"}, "10.2.2.2")
		if domain.ErrorCode(err) == domain.ETooMany {
			refusals = append(refusals, err)
		}
	}
	if len(refusals) != 3 || IsRepeatRefusal(refusals[0]) || !IsRepeatRefusal(refusals[1]) || !IsRepeatRefusal(refusals[2]) {
		t.Fatalf("refusals per address: %v", refusals)
	}
	for i := range maxRegistrationsPerEmail {
		if _, err := s.RegisterFrom(ctx, NewUser{Email: "same@example.com", Name: "U", Password: "kestrel-pass-1"}, "10.3.3."+string(rune('0'+i))); domain.ErrorCode(err) == domain.ETooMany {
			t.Fatalf("attempt %d refused early: %v", i, err)
		}
	}
	if _, err := s.RegisterFrom(ctx, NewUser{Email: "same@example.com", Name: "U", Password: "kestrel-pass-1"}, "10.4.4.4"); domain.ErrorCode(err) != domain.ETooMany {
		t.Fatalf("sixth attempt for one email: %v", err)
	}
}
