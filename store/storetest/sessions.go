package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

func testSessionDetails(t *testing.T, s domain.Store) {
	ctx := context.Background()
	addUser(t, s, "u1", "a@example.com", domain.RoleTrader)
	older := domain.Session{TokenHash: "old", UserID: "u1", CreatedAt: at, ExpiresAt: at.Add(time.Hour), UserAgent: "curl/8", Remote: "10.0.0.1"}
	newer := domain.Session{TokenHash: "new", UserID: "u1", CreatedAt: at.Add(time.Minute), ExpiresAt: at.Add(time.Hour)}
	for _, ss := range []domain.Session{older, newer} {
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.TouchSession(ctx, "old", at.Add(30*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// An earlier touch (a slower request finishing late) never moves it back.
	if err := s.TouchSession(ctx, "old", at.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListUserSessions(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].TokenHash != "new" || list[1].TokenHash != "old" {
		t.Fatalf("ListUserSessions = %+v, want new then old", list)
	}
	if !list[0].LastUsedAt.Equal(newer.CreatedAt) {
		t.Errorf("new session last used %v, want its creation %v", list[0].LastUsedAt, newer.CreatedAt)
	}
	got := list[1]
	if !got.LastUsedAt.Equal(at.Add(30*time.Minute)) || got.UserAgent != "curl/8" || got.Remote != "10.0.0.1" || !got.CreatedAt.Equal(at) {
		t.Errorf("old session = %+v", got)
	}
	if list, _ := s.ListUserSessions(ctx, "nobody"); len(list) != 0 {
		t.Errorf("sessions of nobody = %+v", list)
	}
}

func testTickets(t *testing.T, s domain.Store) {
	ctx := context.Background()
	addUser(t, s, "u1", "a@example.com", domain.RoleTrader)
	if err := s.CreateSession(ctx, domain.Session{TokenHash: "sess", UserID: "u1", CreatedAt: at, ExpiresAt: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	tk := domain.Ticket{Hash: "t1", SessionHash: "sess", ExpiresAt: at.Add(30 * time.Second)}
	if err := s.CreateTicket(ctx, tk); err != nil {
		t.Fatal(err)
	}
	got, err := s.ConsumeTicket(ctx, "t1")
	if err != nil || got.SessionHash != "sess" || !got.ExpiresAt.Equal(tk.ExpiresAt) {
		t.Fatalf("ConsumeTicket = %+v, %v", got, err)
	}
	_, err = s.ConsumeTicket(ctx, "t1")
	wantCode(t, err, domain.ENotFound) // single use

	// A ticket goes with its session, and expired ones are pruned.
	for _, h := range []string{"t2", "t3"} {
		if err := s.CreateTicket(ctx, domain.Ticket{Hash: h, SessionHash: "sess", ExpiresAt: at.Add(30 * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DeleteExpiredSessions(ctx, at.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = s.ConsumeTicket(ctx, "t2")
	wantCode(t, err, domain.ENotFound)
	if err := s.CreateTicket(ctx, domain.Ticket{Hash: "t4", SessionHash: "sess", ExpiresAt: at.Add(30 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "sess"); err != nil {
		t.Fatal(err)
	}
	_, err = s.ConsumeTicket(ctx, "t4")
	wantCode(t, err, domain.ENotFound)
}
