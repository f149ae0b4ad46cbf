// Package storetest is the contract every domain.Store must pass; each engine's
// tests call Run with a constructor for a fresh, empty store.
package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// Open returns a fresh, migrated, empty store; it is closed by the suite.
type Open func(t *testing.T) domain.Store

// Run runs the whole contract against stores made by open.
func Run(t *testing.T, open Open) {
	fresh := func(t *testing.T) domain.Store {
		s := open(t)
		t.Cleanup(func() { s.Close() })
		return s
	}
	runParts(t, fresh, []part[domain.Store]{
		{"Users", testUsers},
		{"FirstUserOnlyOnce", testFirstUser},
		{"Sessions", testSessions},
		{"DisableAndPassword", testDisableAndPassword},
		{"SessionsByUser", testSessionsByUser},
		{"SessionDetails", testSessionDetails},
		{"Tickets", testTickets},
		{"APITokens", testAPITokens},
		{"Audit", testAudit},
		{"AuditNotifyEvent", testAuditNotifyEvent},
		{"KV", testKV},
		{"TOTP", testTOTP},
		{"AlertDismissals", testAlertDismissals},
		{"AlertNotifyEvent", testAlertNotifyEvent},
		{"JobNotifyEvent", testJobNotifyEvent},
	})
}

// at is a fixed, millisecond-precise instant both engines store exactly.
var at = time.Date(2026, 5, 1, 12, 30, 15, 123_000_000, time.UTC)

func user(id, email string, role domain.Role) domain.User {
	return domain.User{ID: id, Email: email, Name: "Name " + id, Role: role, CreatedAt: at}
}

// addUser stores a user with a placeholder password hash; the case
// checks something else.
func addUser(t *testing.T, s domain.UserStore, id, email string, role domain.Role) {
	t.Helper()
	if err := s.CreateUser(context.Background(), user(id, email, role), "h", false); err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := domain.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

func testUsers(t *testing.T, s domain.Store) {
	ctx := context.Background()
	if err := s.CreateUser(ctx, user("u1", "a@example.com", domain.RoleOperator), "hash1", false); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.CreateUser(ctx, user("u2", "a@example.com", domain.RoleTrader), "h", false), domain.EConflict)

	u, hash, err := s.UserByEmail(ctx, "a@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "u1" || hash != "hash1" || u.Role != domain.RoleOperator || !u.CreatedAt.Equal(at) || u.LastLogin != nil {
		t.Fatalf("UserByEmail = %+v, %q", u, hash)
	}
	_, _, err = s.UserByEmail(ctx, "nobody@example.com")
	wantCode(t, err, domain.ENotFound)
	_, err = s.UserByID(ctx, "missing")
	wantCode(t, err, domain.ENotFound)

	login := at.Add(time.Hour)
	if err := s.SetLastLogin(ctx, "u1", login); err != nil {
		t.Fatal(err)
	}
	if err := s.SetUserRole(ctx, "u1", domain.RoleTrader); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SetUserRole(ctx, "missing", domain.RoleTrader), domain.ENotFound)
	u, err = s.UserByID(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if u.Role != domain.RoleTrader || u.LastLogin == nil || !u.LastLogin.Equal(login) {
		t.Fatalf("after updates: %+v", u)
	}

	addUser(t, s, "u3", "b@example.com", domain.RoleTrader)
	all, err := s.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != "u1" || all[1].ID != "u3" {
		t.Fatalf("ListUsers = %+v", all)
	}
	if n, err := s.CountUsers(ctx); err != nil || n != 2 {
		t.Fatalf("CountUsers = %d, %v", n, err)
	}
}

func testDisableAndPassword(t *testing.T, s domain.Store) {
	ctx := context.Background()
	if err := s.CreateUser(ctx, user("u1", "a@example.com", domain.RoleTrader), "old-hash", false); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.UserByID(ctx, "u1"); u.Disabled {
		t.Fatal("a new user must start enabled")
	}
	if err := s.SetUserDisabled(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SetUserDisabled(ctx, "missing", true), domain.ENotFound)
	if u, _, _ := s.UserByEmail(ctx, "a@example.com"); !u.Disabled {
		t.Fatalf("UserByEmail after disabling = %+v", u)
	}
	if all, _ := s.ListUsers(ctx); len(all) != 1 || !all[0].Disabled {
		t.Fatalf("ListUsers after disabling = %+v", all)
	}
	if err := s.SetUserDisabled(ctx, "u1", false); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.UserByID(ctx, "u1"); u.Disabled {
		t.Fatal("enabling did not stick")
	}
	if err := s.SetPasswordHash(ctx, "u1", "new-hash"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SetPasswordHash(ctx, "missing", "h"), domain.ENotFound)
	if _, hash, _ := s.UserByEmail(ctx, "a@example.com"); hash != "new-hash" {
		t.Fatalf("hash = %q, want new-hash", hash)
	}
}

func testSessionsByUser(t *testing.T, s domain.Store) {
	ctx := context.Background()
	for _, u := range []domain.User{user("u1", "a@example.com", domain.RoleTrader), user("u2", "b@example.com", domain.RoleTrader)} {
		if err := s.CreateUser(ctx, u, "h", false); err != nil {
			t.Fatal(err)
		}
	}
	for _, hash := range []string{"a1", "a2", "a3", "b1"} {
		ss := domain.Session{TokenHash: hash, UserID: "u" + map[byte]string{'a': "1", 'b': "2"}[hash[0]], CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.DeleteUserSessions(ctx, "u1", "a2"); err != nil || n != 2 {
		t.Fatalf("DeleteUserSessions keeping a2 = %d, %v; want 2", n, err)
	}
	for hash, want := range map[string]bool{"a1": false, "a2": true, "a3": false, "b1": true} {
		_, err := s.SessionByHash(ctx, hash)
		if got := err == nil; got != want {
			t.Errorf("session %s exists = %v, want %v", hash, got, want)
		}
	}
	if n, err := s.DeleteUserSessions(ctx, "u1", ""); err != nil || n != 1 {
		t.Fatalf("DeleteUserSessions keeping none = %d, %v; want 1", n, err)
	}
	if _, err := s.SessionByHash(ctx, "b1"); err != nil {
		t.Fatalf("another user's session went too: %v", err)
	}
}

func testFirstUser(t *testing.T, s domain.Store) {
	ctx := context.Background()
	if err := s.CreateUser(ctx, user("u1", "a@example.com", domain.RoleOperator), "h", true); err != nil {
		t.Fatal(err)
	}
	err := s.CreateUser(ctx, user("u2", "b@example.com", domain.RoleOperator), "h", true)
	wantCode(t, err, domain.EConflict)
	if n, _ := s.CountUsers(ctx); n != 1 {
		t.Fatalf("CountUsers = %d, want 1 (the refused insert must leave nothing)", n)
	}
}

func testSessions(t *testing.T, s domain.Store) {
	ctx := context.Background()
	addUser(t, s, "u1", "a@example.com", domain.RoleTrader)
	live := domain.Session{TokenHash: "live", UserID: "u1", CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
	old := domain.Session{TokenHash: "old", UserID: "u1", CreatedAt: at, ExpiresAt: at.Add(-time.Minute)}
	for _, ss := range []domain.Session{live, old} {
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SessionByHash(ctx, "live")
	if err != nil || got.UserID != "u1" || !got.ExpiresAt.Equal(live.ExpiresAt) {
		t.Fatalf("SessionByHash = %+v, %v", got, err)
	}
	later := at.Add(2 * time.Hour)
	if err := s.ExtendSession(ctx, "live", later); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SessionByHash(ctx, "live"); !got.ExpiresAt.Equal(later) {
		t.Fatalf("extended expiry = %v, want %v", got.ExpiresAt, later)
	}
	n, err := s.DeleteExpiredSessions(ctx, at)
	if err != nil || n != 1 {
		t.Fatalf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}
	_, err = s.SessionByHash(ctx, "old")
	wantCode(t, err, domain.ENotFound)
	if err := s.DeleteSession(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	_, err = s.SessionByHash(ctx, "live")
	wantCode(t, err, domain.ENotFound)
}

func testAudit(t *testing.T, s domain.Store) {
	ctx := context.Background()
	for i, action := range []string{"POST /api/auth/login", "PUT /api/settings", "DELETE /api/trading/orders/1"} {
		e := domain.AuditEntry{At: at.Add(time.Duration(i) * time.Second), UserID: "u1", Actor: "a@example.com", Action: action, Status: 200 + i, RequestID: "r", Remote: "127.0.0.1"}
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListAudit(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Action != "DELETE /api/trading/orders/1" || got[0].Status != 202 || got[1].Action != "PUT /api/settings" {
		t.Fatalf("ListAudit = %+v", got)
	}
	if !got[0].At.Equal(at.Add(2 * time.Second)) {
		t.Fatalf("At = %v", got[0].At)
	}
}

// testAuditNotifyEvent: an audit entry's notification events (a person's
// risk refusal) are stored in the entry's transaction: both or neither.
func testAuditNotifyEvent(t *testing.T, s domain.Store) {
	ctx := context.Background()
	ev := func(id string) domain.NotifyEvent {
		return domain.NotifyEvent{ID: id, Type: "risk.limit_reached", Severity: domain.SeverityMedium, Payload: []byte(`{"title":"Order refused by risk check"}`), CreatedAt: at}
	}
	entry := func(detail string, evs ...domain.NotifyEvent) domain.AuditEntry {
		return domain.AuditEntry{At: at, UserID: "u1", Actor: "a@example.com", Action: "POST /api/trading/execute", Status: 422, Detail: detail, Notify: evs}
	}
	if err := s.AppendAudit(ctx, entry("refused", ev("evt_refused_1"))); err != nil {
		t.Fatal(err)
	}
	// An entry whose event cannot be stored (its id is taken) is not stored either.
	if err := s.AppendAudit(ctx, entry("lost", ev("evt_refused_1"))); err == nil {
		t.Fatal("an entry with an event that cannot be stored was accepted")
	}
	evs, err := s.CommittedNotifyEvents(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].ID != "evt_refused_1" || evs[0].Type != "risk.limit_reached" || !evs[0].CreatedAt.Equal(at) {
		t.Fatalf("committed events %+v, %v", evs, err)
	}
	got, err := s.ListAudit(ctx, 10)
	if err != nil || len(got) != 1 || got[0].Detail != "refused" {
		t.Fatalf("audit entries %+v, %v; want only the one stored with its event", got, err)
	}
}

func testKV(t *testing.T, s domain.Store) {
	ctx := context.Background()
	_, err := s.GetValue(ctx, "k")
	wantCode(t, err, domain.ENotFound)
	for _, v := range []string{"one", "two"} {
		if err := s.PutValue(ctx, "k", v); err != nil {
			t.Fatal(err)
		}
		if got, err := s.GetValue(ctx, "k"); err != nil || got != v {
			t.Fatalf("GetValue = %q, %v; want %q", got, err, v)
		}
	}
	// CreateValue stores only where nothing is: the first value stands.
	c, ok := s.(domain.KVCreator)
	if !ok {
		t.Fatal("the store cannot create a value only where none is (domain.KVCreator)")
	}
	if created, err := c.CreateValue(ctx, "once", "first"); err != nil || !created {
		t.Fatalf("CreateValue = %v, %v; want stored", created, err)
	}
	if created, err := c.CreateValue(ctx, "once", "second"); err != nil || created {
		t.Fatalf("CreateValue again = %v, %v; want left as it is", created, err)
	}
	if got, err := s.GetValue(ctx, "once"); err != nil || got != "first" {
		t.Fatalf("GetValue = %q, %v; want the first value", got, err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}
