package auth

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// A session's last use is recorded at most once a minute, and survives the
// session cache (a cached session is touched too).
func TestSessionLastUse(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	u, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	if err != nil {
		t.Fatal(err)
	}
	signedIn := clock.t
	token, err := s.OpenSession(WithClient(ctx, Client{Addr: "10.1.2.3", UserAgent: "Browser/1"}), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	use := func(after time.Duration) time.Time {
		t.Helper()
		clock.t = clock.t.Add(after)
		if _, err := s.Authenticate(ctx, token); err != nil {
			t.Fatal(err)
		}
		list, err := s.Sessions(ctx, u, token)
		if err != nil || len(list) != 1 || !list[0].Current || list[0].Remote != "10.1.2.3" || list[0].UserAgent != "Browser/1" {
			t.Fatalf("sessions = %+v, %v", list, err)
		}
		return list[0].LastUsedAt
	}
	if got := use(30 * time.Second); !got.Equal(signedIn) {
		t.Fatalf("last use after 30 s = %v, want the sign-in %v (recorded to the minute)", got, signedIn)
	}
	if got := use(40 * time.Second); !got.Equal(clock.t) {
		t.Fatalf("last use after 70 s = %v, want %v", got, clock.t)
	}
}

// A realtime ticket opens once, within its 30 seconds, for a live session.
func TestTicketRules(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	u, _ := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	token, _ := s.OpenSession(ctx, u.ID)
	if _, _, err := s.IssueTicket(ctx, "not-a-session"); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("ticket for no session: %v", err)
	}
	tk, exp, err := s.IssueTicket(ctx, token)
	if err != nil || !exp.Equal(clock.t.Add(TicketTTL)) {
		t.Fatalf("ticket: %v, expires %v", err, exp)
	}
	got, sid, err := s.RedeemTicket(ctx, tk)
	if err != nil || got.ID != u.ID || sid != SessionID(token) {
		t.Fatalf("redeem: %+v %q %v", got, sid, err)
	}
	if _, _, err := s.RedeemTicket(ctx, tk); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("second redeem: %v", err)
	}
	late, _, _ := s.IssueTicket(ctx, token)
	clock.t = clock.t.Add(TicketTTL)
	if _, _, err := s.RedeemTicket(ctx, late); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("expired ticket: %v", err)
	}
}

// One session asks for at most 30 tickets a minute; another session is not affected.
func TestTicketRateBound(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	u, _ := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"})
	a, _ := s.OpenSession(ctx, u.ID)
	b, _ := s.OpenSession(ctx, u.ID)
	for i := range maxTicketsPerMinute {
		if _, _, err := s.IssueTicket(ctx, a); err != nil {
			t.Fatalf("ticket %d: %v", i, err)
		}
	}
	if _, _, err := s.IssueTicket(ctx, a); domain.ErrorCode(err) != domain.ETooMany {
		t.Fatalf("ticket beyond the bound: %v", err)
	}
	if _, _, err := s.IssueTicket(ctx, b); err != nil {
		t.Fatalf("another session: %v", err)
	}
	clock.t = clock.t.Add(time.Minute)
	if _, _, err := s.IssueTicket(ctx, a); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}
