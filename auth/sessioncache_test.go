package auth

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/store/sqlite"
)

// countingStore counts session lookups, to show which requests the cache answered.
type countingStore struct {
	Store
	lookups atomic.Int64
}

func (c *countingStore) SessionByHash(ctx context.Context, h string) (domain.Session, error) {
	c.lookups.Add(1)
	return c.Store.SessionByHash(ctx, h)
}

func cachedService(t *testing.T) (*Service, *countingStore, *fakeClock, domain.User, domain.User) {
	t.Helper()
	bcryptCost = 4
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cs := &countingStore{Store: st}
	clock := &fakeClock{t: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)}
	s := NewService(cs, clock, time.Hour)
	ctx := context.Background()
	op, err := s.Register(ctx, NewUser{Email: "op@example.com", Name: "Op", Password: "kestrel-pass-1"})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.CreateUser(ctx, NewUser{Email: "tr@example.com", Name: "Tr", Password: "kestrel-pass-1"})
	if err != nil {
		t.Fatal(err)
	}
	return s, cs, clock, op, tr
}

func mustAuth(t *testing.T, s *Service, token string) domain.User {
	t.Helper()
	u, err := s.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatalf("authenticate: %v", err)
	}
	return u
}

func refused(t *testing.T, s *Service, token, after string) {
	t.Helper()
	if _, err := s.Authenticate(context.Background(), token); domain.ErrorCode(err) != domain.EUnauthorized {
		t.Fatalf("after %s: err = %v, want unauthorized", after, err)
	}
}

func TestSessionCacheAnswersRepeatedRequests(t *testing.T) {
	s, cs, _, _, tr := cachedService(t)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	for i := 0; i < 5; i++ {
		mustAuth(t, s, token)
	}
	if n := cs.lookups.Load(); n != 1 {
		t.Fatalf("%d store lookups for 5 requests, want 1", n)
	}
}

func TestSessionCacheEndsAtLogout(t *testing.T) {
	s, _, _, _, tr := cachedService(t)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	mustAuth(t, s, token)
	if err := s.Logout(context.Background(), token); err != nil {
		t.Fatal(err)
	}
	refused(t, s, token, "logout")
}

func TestSessionCacheEndsWhenDisabled(t *testing.T) {
	s, _, _, op, tr := cachedService(t)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	mustAuth(t, s, token)
	yes := true
	if _, err := s.UpdateUser(context.Background(), op, tr.ID, UserChange{Disabled: &yes}); err != nil {
		t.Fatal(err)
	}
	refused(t, s, token, "disabling")
}

func TestSessionCacheSeesRoleChangeAtOnce(t *testing.T) {
	s, _, _, op, tr := cachedService(t)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	if u := mustAuth(t, s, token); u.Role != domain.RoleTrader {
		t.Fatalf("role %s", u.Role)
	}
	role := domain.RoleOperator
	if _, err := s.UpdateUser(context.Background(), op, tr.ID, UserChange{Role: &role}); err != nil {
		t.Fatal(err)
	}
	if u := mustAuth(t, s, token); u.Role != domain.RoleOperator {
		t.Fatalf("role after the change %s, want operator", u.Role)
	}
}

func TestSessionCacheEndsAtPasswordReset(t *testing.T) {
	s, _, _, op, tr := cachedService(t)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	mustAuth(t, s, token)
	if _, err := s.ResetPassword(context.Background(), op, tr.ID, "another-pass1"); err != nil {
		t.Fatal(err)
	}
	refused(t, s, token, "a password reset")
}

func TestSessionCacheEndsAtExpiry(t *testing.T) {
	s, cs, clock, _, tr := cachedService(t)
	s.SetSessionMaxAge(90 * time.Minute)
	token, _ := s.OpenSession(context.Background(), tr.ID)
	mustAuth(t, s, token)
	clock.t = clock.t.Add(59 * time.Minute) // idle just under the hour: extended, from the cache
	mustAuth(t, s, token)
	clock.t = clock.t.Add(30 * time.Minute) // 89 minutes: still inside the absolute lifetime
	mustAuth(t, s, token)
	clock.t = clock.t.Add(time.Minute) // 90 minutes: the absolute end
	refused(t, s, token, "the absolute lifetime")
	if n := cs.lookups.Load(); n != 1 {
		t.Fatalf("%d store lookups, want 1: expiry is decided from the cached session", n)
	}
	// And idle expiry.
	token2, _ := s.OpenSession(context.Background(), tr.ID)
	mustAuth(t, s, token2)
	clock.t = clock.t.Add(time.Hour)
	refused(t, s, token2, "an idle hour")
}

// Two instances of a cluster share the store; each keeps its own cache.
// What one changes reaches the other through OnInvalidated and Forget
// (over NATS in a cluster, a direct call here).
func TestSessionCacheInvalidationReachesAnotherInstance(t *testing.T) {
	a, cs, clock, op, tr := cachedService(t)
	b := NewService(cs, clock, time.Hour)
	a.OnInvalidated(func(e *Ended) { b.Forget(e) })
	var closed []Ended
	b.OnSessionsEnded(func(e Ended) { closed = append(closed, e) })
	ctx := context.Background()

	token, _ := a.OpenSession(ctx, tr.ID)
	mustAuth(t, b, token) // cached on b
	role := domain.RoleOperator
	if _, err := a.UpdateUser(ctx, op, tr.ID, UserChange{Role: &role}); err != nil {
		t.Fatal(err)
	}
	if u := mustAuth(t, b, token); u.Role != domain.RoleOperator {
		t.Fatalf("b still sees role %s after a's change", u.Role)
	}
	if len(closed) != 0 {
		t.Fatalf("a role change closed connections on b: %+v", closed)
	}
	if err := a.Logout(ctx, token); err != nil {
		t.Fatal(err)
	}
	refused(t, b, token, "a logout on another instance")
	if len(closed) != 1 || closed[0].SessionID != hashToken(token) {
		t.Fatalf("b was told %+v, want the logged-out session", closed)
	}
}
