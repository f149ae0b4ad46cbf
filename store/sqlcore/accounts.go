package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

const userCols = `id, email, name, role, created_at, last_login, disabled`

// scanUser reads userCols, then extra (the password hash).
func (c *Core) scanUser(row Row, extra ...any) (domain.User, error) {
	var u domain.User
	var role string
	dest := append([]any{&u.ID, &u.Email, &u.Name, &role, c.d.TimeDest(&u.CreatedAt), c.d.NullTimeDest(&u.LastLogin), &u.Disabled}, extra...)
	if err := row.Scan(dest...); err != nil {
		return u, c.notFound(err, "User not found")
	}
	u.Role, u.CreatedAt, u.LastLogin = domain.Role(role), utc(u.CreatedAt), utcPtr(u.LastLogin)
	return u, nil
}

// CreateUser implements domain.UserStore. With onlyIfFirst, the count and
// the insert are one transaction, serialised against others where the
// engine needs it (lockTable).
func (c *Core) CreateUser(ctx context.Context, u domain.User, hash string, onlyIfFirst bool) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		if onlyIfFirst {
			if err := c.lockTable(ctx, tx, "users"); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return domain.Errorf(domain.EConflict, domain.ErrNotFirstUser)
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			u.ID, u.Email, u.Name, string(u.Role), hash, c.d.Time(u.CreatedAt))
		return c.conflict(err, "An account with this email already exists")
	})
}

// UserByEmail implements domain.UserStore.
func (c *Core) UserByEmail(ctx context.Context, email string) (domain.User, string, error) {
	var hash string
	u, err := c.scanUser(c.r.QueryRow(ctx, `SELECT `+userCols+`, password_hash FROM users WHERE email = $1`, email), &hash)
	return u, hash, err
}

// UserByID implements domain.UserStore.
func (c *Core) UserByID(ctx context.Context, id string) (domain.User, error) {
	return c.scanUser(c.r.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = $1`, id))
}

// ListUsers implements domain.UserStore.
func (c *Core) ListUsers(ctx context.Context) ([]domain.User, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.User, error) { return c.scanUser(r) },
		`SELECT `+userCols+` FROM users ORDER BY created_at, id`)
}

// SetUserRole implements domain.UserStore.
func (c *Core) SetUserRole(ctx context.Context, id string, role domain.Role) error {
	return c.execOne(ctx, "User not found", `UPDATE users SET role = $1 WHERE id = $2`, string(role), id)
}

// SetUserDisabled implements domain.UserStore.
func (c *Core) SetUserDisabled(ctx context.Context, id string, disabled bool) error {
	return c.execOne(ctx, "User not found", `UPDATE users SET disabled = $1 WHERE id = $2`, disabled, id)
}

// SetPasswordHash implements domain.UserStore.
func (c *Core) SetPasswordHash(ctx context.Context, id string, hash string) error {
	return c.execOne(ctx, "User not found", `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, id)
}

// SetLastLogin implements domain.UserStore.
func (c *Core) SetLastLogin(ctx context.Context, id string, at time.Time) error {
	_, err := c.w.Exec(ctx, `UPDATE users SET last_login = $1 WHERE id = $2`, c.d.Time(at), id)
	return err
}

// CountUsers implements domain.UserStore.
func (c *Core) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := c.r.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}

const sessionCols = `token_hash, user_id, created_at, expires_at, last_used_at, user_agent, remote`

func (c *Core) scanSession(row Row) (domain.Session, error) {
	var ss domain.Session
	err := row.Scan(&ss.TokenHash, &ss.UserID, c.d.TimeDest(&ss.CreatedAt), c.d.TimeDest(&ss.ExpiresAt), c.d.TimeDest(&ss.LastUsedAt), &ss.UserAgent, &ss.Remote)
	ss.CreatedAt, ss.ExpiresAt, ss.LastUsedAt = utc(ss.CreatedAt), utc(ss.ExpiresAt), utc(ss.LastUsedAt)
	return ss, err
}

// CreateSession implements domain.SessionStore.
func (c *Core) CreateSession(ctx context.Context, ss domain.Session) error {
	if ss.LastUsedAt.IsZero() {
		ss.LastUsedAt = ss.CreatedAt
	}
	_, err := c.w.Exec(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		ss.TokenHash, ss.UserID, c.d.Time(ss.CreatedAt), c.d.Time(ss.ExpiresAt), c.d.Time(ss.LastUsedAt), ss.UserAgent, ss.Remote)
	return err
}

// SessionByHash implements domain.SessionStore.
func (c *Core) SessionByHash(ctx context.Context, hash string) (domain.Session, error) {
	ss, err := c.scanSession(c.r.QueryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE token_hash = $1`, hash))
	return ss, c.notFound(err, "Session not found")
}

// ListUserSessions implements domain.SessionStore.
func (c *Core) ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error) {
	return queryAll(ctx, c.r, c.scanSession,
		`SELECT `+sessionCols+` FROM sessions WHERE user_id = $1 ORDER BY created_at DESC, token_hash`, userID)
}

// TouchSession implements domain.SessionStore.
func (c *Core) TouchSession(ctx context.Context, hash string, at time.Time) error {
	_, err := c.w.Exec(ctx, `UPDATE sessions SET last_used_at = $1 WHERE token_hash = $2 AND last_used_at < $1`, c.d.Time(at), hash)
	return err
}

// CreateTicket implements domain.SessionStore.
func (c *Core) CreateTicket(ctx context.Context, t domain.Ticket) error {
	_, err := c.w.Exec(ctx, `INSERT INTO ws_tickets (ticket_hash, session_hash, expires_at) VALUES ($1, $2, $3)`,
		t.Hash, t.SessionHash, c.d.Time(t.ExpiresAt))
	return err
}

// ConsumeTicket implements domain.SessionStore.
func (c *Core) ConsumeTicket(ctx context.Context, hash string) (domain.Ticket, error) {
	t := domain.Ticket{Hash: hash}
	err := c.w.QueryRow(ctx, `DELETE FROM ws_tickets WHERE ticket_hash = $1 RETURNING session_hash, expires_at`, hash).
		Scan(&t.SessionHash, c.d.TimeDest(&t.ExpiresAt))
	t.ExpiresAt = utc(t.ExpiresAt)
	return t, c.notFound(err, "Ticket not found")
}

// ExtendSession implements domain.SessionStore.
func (c *Core) ExtendSession(ctx context.Context, hash string, expiresAt time.Time) error {
	_, err := c.w.Exec(ctx, `UPDATE sessions SET expires_at = $1 WHERE token_hash = $2`, c.d.Time(expiresAt), hash)
	return err
}

// DeleteSession implements domain.SessionStore.
func (c *Core) DeleteSession(ctx context.Context, hash string) error {
	_, err := c.w.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, hash)
	return err
}

// DeleteUserSessions implements domain.SessionStore.
func (c *Core) DeleteUserSessions(ctx context.Context, userID, keep string) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, userID, keep)
}

// DeleteExpiredSessions implements domain.SessionStore.
func (c *Core) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	if _, err := c.w.Exec(ctx, `DELETE FROM ws_tickets WHERE expires_at < $1`, c.d.Time(now)); err != nil {
		return 0, err
	}
	return c.w.Exec(ctx, `DELETE FROM sessions WHERE expires_at < $1`, c.d.Time(now))
}

// ListAudit implements domain.AuditStore (each engine appends in its own way).
func (c *Core) ListAudit(ctx context.Context, limit int) ([]domain.AuditEntry, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.AuditEntry, error) {
		var e domain.AuditEntry
		err := r.Scan(&e.ID, c.d.TimeDest(&e.At), &e.UserID, &e.Actor, &e.Action, &e.Status, &e.RequestID, &e.Remote, &e.Detail)
		e.At = utc(e.At)
		return e, err
	}, `SELECT id, at, user_id, actor, action, status, request_id, remote, detail FROM audit_log ORDER BY id DESC LIMIT $1`, limit)
}

// GetValue implements domain.KVStore.
func (c *Core) GetValue(ctx context.Context, key string) (string, error) {
	var v string
	err := c.r.QueryRow(ctx, `SELECT value FROM kv WHERE key = $1`, key).Scan(&v)
	return v, c.notFound(err, "No value for "+key)
}

// PutValue implements domain.KVStore.
func (c *Core) PutValue(ctx context.Context, key, value string) error {
	_, err := c.w.Exec(ctx, `INSERT INTO kv (key, value, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, c.d.Time(time.Now()))
	return err
}

// CreateValue implements domain.KVCreator.
func (c *Core) CreateValue(ctx context.Context, key, value string) (bool, error) {
	n, err := c.w.Exec(ctx, `INSERT INTO kv (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, key, value, c.d.Time(time.Now()))
	return err == nil && n == 1, err
}
