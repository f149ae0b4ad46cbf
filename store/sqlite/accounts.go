package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"kestrel/domain"
)

const userCols = `id, email, name, role, created_at, last_login, disabled`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (domain.User, error) {
	var u domain.User
	var created int64
	var last sql.NullInt64
	dest := append([]any{&u.ID, &u.Email, &u.Name, &u.Role, &created, &last, &u.Disabled}, extra...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return u, domain.Errorf(domain.ENotFound, "User not found")
		}
		return u, err
	}
	u.CreatedAt = fromMS(created)
	if last.Valid {
		t := fromMS(last.Int64)
		u.LastLogin = &t
	}
	return u, nil
}

// CreateUser implements domain.UserStore.
func (s *Store) CreateUser(ctx context.Context, u domain.User, hash string, onlyIfFirst bool) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if onlyIfFirst {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return domain.Errorf(domain.EConflict, domain.ErrNotFirstUser)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			u.ID, u.Email, u.Name, string(u.Role), hash, ms(u.CreatedAt))
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			return domain.Errorf(domain.EConflict, "An account with this email already exists")
		}
		return err
	})
}

// UserByEmail implements domain.UserStore.
func (s *Store) UserByEmail(ctx context.Context, email string) (domain.User, string, error) {
	var hash string
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userCols+`, password_hash FROM users WHERE email = ?`, email), &hash)
	return u, hash, err
}

// UserByID implements domain.UserStore.
func (s *Store) UserByID(ctx context.Context, id string) (domain.User, error) {
	return scanUser(s.r.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
}

// ListUsers implements domain.UserStore.
func (s *Store) ListUsers(ctx context.Context) ([]domain.User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userCols+` FROM users ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// SetUserRole implements domain.UserStore.
func (s *Store) SetUserRole(ctx context.Context, id string, role domain.Role) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET role = ? WHERE id = ?`, string(role), id)
	return affectedOne(res, err, "User not found")
}

// SetUserDisabled implements domain.UserStore.
func (s *Store) SetUserDisabled(ctx context.Context, id string, disabled bool) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET disabled = ? WHERE id = ?`, disabled, id)
	return affectedOne(res, err, "User not found")
}

// SetPasswordHash implements domain.UserStore.
func (s *Store) SetPasswordHash(ctx context.Context, id string, hash string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, id)
	return affectedOne(res, err, "User not found")
}

// SetLastLogin implements domain.UserStore.
func (s *Store) SetLastLogin(ctx context.Context, id string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE users SET last_login = ? WHERE id = ?`, ms(at), id)
	return err
}

// CountUsers implements domain.UserStore.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}

// CreateSession implements domain.SessionStore.
func (s *Store) CreateSession(ctx context.Context, ss domain.Session) error {
	if ss.LastUsedAt.IsZero() {
		ss.LastUsedAt = ss.CreatedAt
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at, user_agent, remote) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		ss.TokenHash, ss.UserID, ms(ss.CreatedAt), ms(ss.ExpiresAt), ms(ss.LastUsedAt), ss.UserAgent, ss.Remote)
	return err
}

const sessionCols = `token_hash, user_id, created_at, expires_at, last_used_at, user_agent, remote`

func scanSession(row interface{ Scan(...any) error }) (domain.Session, error) {
	var ss domain.Session
	var created, expires, used int64
	err := row.Scan(&ss.TokenHash, &ss.UserID, &created, &expires, &used, &ss.UserAgent, &ss.Remote)
	ss.CreatedAt, ss.ExpiresAt, ss.LastUsedAt = fromMS(created), fromMS(expires), fromMS(used)
	return ss, err
}

// SessionByHash implements domain.SessionStore.
func (s *Store) SessionByHash(ctx context.Context, hash string) (domain.Session, error) {
	ss, err := scanSession(s.r.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE token_hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return ss, domain.Errorf(domain.ENotFound, "Session not found")
	}
	return ss, err
}

// ListUserSessions implements domain.SessionStore.
func (s *Store) ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE user_id = ? ORDER BY created_at DESC, token_hash`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Session{}
	for rows.Next() {
		ss, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ss)
	}
	return out, rows.Err()
}

// TouchSession implements domain.SessionStore.
func (s *Store) TouchSession(ctx context.Context, hash string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE sessions SET last_used_at = ? WHERE token_hash = ? AND last_used_at < ?`, ms(at), hash, ms(at))
	return err
}

// CreateTicket implements domain.SessionStore.
func (s *Store) CreateTicket(ctx context.Context, t domain.Ticket) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO ws_tickets (ticket_hash, session_hash, expires_at) VALUES (?, ?, ?)`,
		t.Hash, t.SessionHash, ms(t.ExpiresAt))
	return err
}

// ConsumeTicket implements domain.SessionStore.
func (s *Store) ConsumeTicket(ctx context.Context, hash string) (domain.Ticket, error) {
	t := domain.Ticket{Hash: hash}
	var exp int64
	err := s.w.QueryRowContext(ctx, `DELETE FROM ws_tickets WHERE ticket_hash = ? RETURNING session_hash, expires_at`, hash).Scan(&t.SessionHash, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.Errorf(domain.ENotFound, "Ticket not found")
	}
	t.ExpiresAt = fromMS(exp)
	return t, err
}

// ExtendSession implements domain.SessionStore.
func (s *Store) ExtendSession(ctx context.Context, hash string, expiresAt time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE sessions SET expires_at = ? WHERE token_hash = ?`, ms(expiresAt), hash)
	return err
}

// DeleteSession implements domain.SessionStore.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hash)
	return err
}

// DeleteUserSessions implements domain.SessionStore.
func (s *Store) DeleteUserSessions(ctx context.Context, userID, keep string) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?`, userID, keep)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// DeleteExpiredSessions implements domain.SessionStore.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM ws_tickets WHERE expires_at < ?`, ms(now)); err != nil {
		return 0, err
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at < ?`, ms(now))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ListAudit implements domain.AuditStore.
func (s *Store) ListAudit(ctx context.Context, limit int) ([]domain.AuditEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, at, user_id, actor, action, status, request_id, remote, detail FROM audit_log ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.AuditEntry{}
	for rows.Next() {
		var e domain.AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.UserID, &e.Actor, &e.Action, &e.Status, &e.RequestID, &e.Remote, &e.Detail); err != nil {
			return nil, err
		}
		e.At = fromMS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// GetValue implements domain.KVStore.
func (s *Store) GetValue(ctx context.Context, key string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", domain.Errorf(domain.ENotFound, "No value for %s", key)
	}
	return v, err
}

// PutValue implements domain.KVStore.
func (s *Store) PutValue(ctx context.Context, key, value string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value, ms(time.Now()))
	return err
}

// CreateValue implements domain.KVCreator.
func (s *Store) CreateValue(ctx context.Context, key, value string) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`, key, value, ms(time.Now()))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func affectedOne(res sql.Result, err error, notFound string) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.ENotFound, "%s", notFound)
	}
	return nil
}
