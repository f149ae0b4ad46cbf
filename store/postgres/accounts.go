package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

const userCols = `id, email, name, role, created_at, last_login, disabled`

func scanUser(row pgRow, extra ...any) (domain.User, error) {
	var u domain.User
	var role string
	dest := append([]any{&u.ID, &u.Email, &u.Name, &role, &u.CreatedAt, &u.LastLogin, &u.Disabled}, extra...)
	if err := row.Scan(dest...); err != nil {
		return u, notFound(err, "User not found")
	}
	u.Role = domain.Role(role)
	u.CreatedAt = u.CreatedAt.UTC()
	if u.LastLogin != nil {
		t := u.LastLogin.UTC()
		u.LastLogin = &t
	}
	return u, nil
}

// CreateUser implements domain.UserStore.
func (s *Store) CreateUser(ctx context.Context, u domain.User, hash string, onlyIfFirst bool) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		if onlyIfFirst {
			// Serialise first-user creation across connections and instances.
			if _, err := tx.Exec(ctx, `LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`); err != nil {
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
			u.ID, u.Email, u.Name, string(u.Role), hash, u.CreatedAt)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return domain.Errorf(domain.EConflict, "An account with this email already exists")
		}
		return err
	})
}

// UserByEmail implements domain.UserStore.
func (s *Store) UserByEmail(ctx context.Context, email string) (domain.User, string, error) {
	var hash string
	u, err := scanUser(s.db.QueryRow(ctx, `SELECT `+userCols+`, password_hash FROM users WHERE email = $1`, email), &hash)
	return u, hash, err
}

// UserByID implements domain.UserStore.
func (s *Store) UserByID(ctx context.Context, id string) (domain.User, error) {
	return scanUser(s.db.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = $1`, id))
}

// ListUsers implements domain.UserStore.
func (s *Store) ListUsers(ctx context.Context) ([]domain.User, error) {
	rows, err := s.db.Query(ctx, `SELECT `+userCols+` FROM users ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.User{}
	for rows.Next() {
		u, err := scanUser(rows.row())
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// SetUserRole implements domain.UserStore.
func (s *Store) SetUserRole(ctx context.Context, id string, role domain.Role) error {
	return s.updateUser(ctx, `UPDATE users SET role = $1 WHERE id = $2`, string(role), id)
}

// SetUserDisabled implements domain.UserStore.
func (s *Store) SetUserDisabled(ctx context.Context, id string, disabled bool) error {
	return s.updateUser(ctx, `UPDATE users SET disabled = $1 WHERE id = $2`, disabled, id)
}

// SetPasswordHash implements domain.UserStore.
func (s *Store) SetPasswordHash(ctx context.Context, id string, hash string) error {
	return s.updateUser(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, id)
}

// updateUser runs an UPDATE of one user, not_found when it matched none.
func (s *Store) updateUser(ctx context.Context, sql string, args ...any) error {
	tag, err := s.db.Exec(ctx, sql, args...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return domain.Errorf(domain.ENotFound, "User not found")
	}
	return nil
}

// SetLastLogin implements domain.UserStore.
func (s *Store) SetLastLogin(ctx context.Context, id string, at time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE users SET last_login = $1 WHERE id = $2`, at, id)
	return err
}

// CountUsers implements domain.UserStore.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}

// CreateSession implements domain.SessionStore.
func (s *Store) CreateSession(ctx context.Context, ss domain.Session) error {
	if ss.LastUsedAt.IsZero() {
		ss.LastUsedAt = ss.CreatedAt
	}
	_, err := s.db.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at, user_agent, remote) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		ss.TokenHash, ss.UserID, ss.CreatedAt, ss.ExpiresAt, ss.LastUsedAt, ss.UserAgent, ss.Remote)
	return err
}

const sessionCols = `token_hash, user_id, created_at, expires_at, last_used_at, user_agent, remote`

func scanSession(row interface{ Scan(...any) error }) (domain.Session, error) {
	var ss domain.Session
	err := row.Scan(&ss.TokenHash, &ss.UserID, &ss.CreatedAt, &ss.ExpiresAt, &ss.LastUsedAt, &ss.UserAgent, &ss.Remote)
	ss.CreatedAt, ss.ExpiresAt, ss.LastUsedAt = ss.CreatedAt.UTC(), ss.ExpiresAt.UTC(), ss.LastUsedAt.UTC()
	return ss, err
}

// SessionByHash implements domain.SessionStore.
func (s *Store) SessionByHash(ctx context.Context, hash string) (domain.Session, error) {
	ss, err := scanSession(s.db.QueryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE token_hash = $1`, hash))
	return ss, notFound(err, "Session not found")
}

// ListUserSessions implements domain.SessionStore.
func (s *Store) ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error) {
	rows, err := s.db.Query(ctx, `SELECT `+sessionCols+` FROM sessions WHERE user_id = $1 ORDER BY created_at DESC, token_hash`, userID)
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
	_, err := s.db.Exec(ctx, `UPDATE sessions SET last_used_at = $1 WHERE token_hash = $2 AND last_used_at < $1`, at, hash)
	return err
}

// CreateTicket implements domain.SessionStore.
func (s *Store) CreateTicket(ctx context.Context, t domain.Ticket) error {
	_, err := s.db.Exec(ctx, `INSERT INTO ws_tickets (ticket_hash, session_hash, expires_at) VALUES ($1, $2, $3)`,
		t.Hash, t.SessionHash, t.ExpiresAt)
	return err
}

// ConsumeTicket implements domain.SessionStore.
func (s *Store) ConsumeTicket(ctx context.Context, hash string) (domain.Ticket, error) {
	t := domain.Ticket{Hash: hash}
	err := s.db.QueryRow(ctx, `DELETE FROM ws_tickets WHERE ticket_hash = $1 RETURNING session_hash, expires_at`, hash).Scan(&t.SessionHash, &t.ExpiresAt)
	t.ExpiresAt = t.ExpiresAt.UTC()
	return t, notFound(err, "Ticket not found")
}

// ExtendSession implements domain.SessionStore.
func (s *Store) ExtendSession(ctx context.Context, hash string, expiresAt time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE sessions SET expires_at = $1 WHERE token_hash = $2`, expiresAt, hash)
	return err
}

// DeleteSession implements domain.SessionStore.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, hash)
	return err
}

// DeleteUserSessions implements domain.SessionStore.
func (s *Store) DeleteUserSessions(ctx context.Context, userID, keep string) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, userID, keep)
	return tag.RowsAffected(), err
}

// DeleteExpiredSessions implements domain.SessionStore.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	if _, err := s.db.Exec(ctx, `DELETE FROM ws_tickets WHERE expires_at < $1`, now); err != nil {
		return 0, err
	}
	tag, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE expires_at < $1`, now)
	return tag.RowsAffected(), err
}

// AppendAudit implements domain.AuditStore.
// The entry commits without waiting for its own WAL flush
// (synchronous_commit off for this transaction, in one round trip): the
// next ledger commit's flush covers it. Kestrel being killed loses nothing;
// a crash of the database server can lose the audit rows of its last
// moments, never an order (the ledger's commits wait for the flush).
func (s *Store) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SET LOCAL synchronous_commit TO OFF`)
	queueAudit(b, e)
	b.Queue(`COMMIT`)
	return s.db.SendBatch(ctx, b)
}

// queueAudit queues the writes of e and its notification events.
func queueAudit(b *pgx.Batch, e domain.AuditEntry) {
	b.Queue(`INSERT INTO audit_log (at, user_id, actor, action, status, request_id, remote, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		e.At, e.UserID, e.Actor, e.Action, e.Status, e.RequestID, e.Remote, e.Detail)
	for _, n := range e.Notify {
		b.Queue(insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), n.CreatedAt)
	}
}

// ListAudit implements domain.AuditStore.
func (s *Store) ListAudit(ctx context.Context, limit int) ([]domain.AuditEntry, error) {
	rows, err := s.db.Query(ctx, `SELECT id, at, user_id, actor, action, status, request_id, remote, detail FROM audit_log ORDER BY id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.AuditEntry{}
	for rows.Next() {
		var e domain.AuditEntry
		if err := rows.Scan(&e.ID, &e.At, &e.UserID, &e.Actor, &e.Action, &e.Status, &e.RequestID, &e.Remote, &e.Detail); err != nil {
			return nil, err
		}
		e.At = e.At.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// GetValue implements domain.KVStore.
func (s *Store) GetValue(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRow(ctx, `SELECT value FROM kv WHERE key = $1`, key).Scan(&v)
	return v, notFound(err, "No value for "+key)
}

// CreateValue implements domain.KVCreator.
func (s *Store) CreateValue(ctx context.Context, key, value string) (bool, error) {
	tag, err := s.db.Exec(ctx, `INSERT INTO kv (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO NOTHING`, key, value)
	return err == nil && tag.RowsAffected() == 1, err
}

// PutValue implements domain.KVStore.
func (s *Store) PutValue(ctx context.Context, key, value string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO kv (key, value, updated_at) VALUES ($1, $2, now())
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, value)
	return err
}
