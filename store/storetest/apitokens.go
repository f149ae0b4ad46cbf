package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

func testAPITokens(t *testing.T, s domain.Store) {
	ctx := context.Background()
	for _, u := range []domain.User{user("u1", "a@example.com", domain.RoleTrader), user("u2", "b@example.com", domain.RoleTrader)} {
		if err := s.CreateUser(ctx, u, "h", false); err != nil {
			t.Fatal(err)
		}
	}
	older := domain.APIToken{ID: "t1", UserID: "u1", Name: "bot-1", Scope: domain.ScopePaper, Hash: "h1", CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
	newer := domain.APIToken{ID: "t2", UserID: "u1", Name: "bot-2", Scope: domain.ScopeRead, Hash: "h2", CreatedAt: at.Add(time.Minute), ExpiresAt: at.Add(2 * time.Hour)}
	other := domain.APIToken{ID: "t3", UserID: "u2", Name: "bot-1", Scope: domain.ScopeTrade, Hash: "h3", CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
	for _, tk := range []domain.APIToken{older, newer, other} {
		if err := s.CreateAPIToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	// A user's token names are unique (another user may reuse one).
	dup := older
	dup.ID, dup.Hash = "t4", "h4"
	wantCode(t, s.CreateAPIToken(ctx, dup), domain.EConflict)

	got, err := s.APITokenByHash(ctx, "h1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "t1" || got.UserID != "u1" || got.Name != "bot-1" || got.Scope != domain.ScopePaper || got.Hash != "h1" ||
		!got.CreatedAt.Equal(at) || !got.ExpiresAt.Equal(at.Add(time.Hour)) || got.LastUsedAt != nil {
		t.Errorf("APITokenByHash = %+v", got)
	}
	_, err = s.APITokenByHash(ctx, "nope")
	wantCode(t, err, domain.ENotFound)

	if err := s.TouchAPIToken(ctx, "t1", at.Add(30*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A late, earlier touch never moves the last use back.
	if err := s.TouchAPIToken(ctx, "t1", at.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListAPITokens(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "t2" || list[1].ID != "t1" {
		t.Fatalf("ListAPITokens = %+v, want t2 then t1", list)
	}
	if lu := list[1].LastUsedAt; lu == nil || !lu.Equal(at.Add(30*time.Minute)) {
		t.Errorf("t1 last used %v, want %v", lu, at.Add(30*time.Minute))
	}

	// Revoking is scoped to the owner unless no owner is given (operators).
	_, err = s.DeleteAPIToken(ctx, "t3", "u1")
	wantCode(t, err, domain.ENotFound)
	del, err := s.DeleteAPIToken(ctx, "t3", "")
	if err != nil || del.UserID != "u2" || del.Name != "bot-1" {
		t.Fatalf("DeleteAPIToken(t3, any) = %+v, %v", del, err)
	}
	if _, err := s.DeleteAPIToken(ctx, "t1", "u1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.APITokenByHash(ctx, "h1")
	wantCode(t, err, domain.ENotFound)
	_, err = s.DeleteAPIToken(ctx, "t1", "u1")
	wantCode(t, err, domain.ENotFound)
	if list, _ := s.ListAPITokens(ctx, "u2"); len(list) != 0 {
		t.Errorf("u2's tokens after revoke = %+v", list)
	}

	// Revoking all of a user's tokens leaves other users' alone.
	for _, tk := range []domain.APIToken{
		{ID: "t5", UserID: "u2", Name: "a", Scope: domain.ScopeRead, Hash: "h5", CreatedAt: at, ExpiresAt: at.Add(time.Hour)},
		{ID: "t6", UserID: "u2", Name: "b", Scope: domain.ScopeTrade, Hash: "h6", CreatedAt: at, ExpiresAt: at.Add(time.Hour)},
	} {
		if err := s.CreateAPIToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.DeleteUserAPITokens(ctx, "u2"); err != nil || n != 2 {
		t.Fatalf("DeleteUserAPITokens(u2) = %d, %v; want 2", n, err)
	}
	if n, err := s.DeleteUserAPITokens(ctx, "u2"); err != nil || n != 0 {
		t.Fatalf("DeleteUserAPITokens(u2) again = %d, %v; want 0", n, err)
	}
	if list, _ := s.ListAPITokens(ctx, "u1"); len(list) != 1 || list[0].ID != "t2" {
		t.Errorf("u1's tokens after u2's were revoked = %+v", list)
	}
}
