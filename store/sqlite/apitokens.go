package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"kestrel/domain"
)

const apiTokenCols = `id, user_id, name, scope, token_hash, created_at, expires_at, last_used_at`

func scanAPIToken(row interface{ Scan(...any) error }) (domain.APIToken, error) {
	var t domain.APIToken
	var created, expires int64
	var used sql.NullInt64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Scope, &t.Hash, &created, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.Errorf(domain.ENotFound, "No such API token")
	}
	t.CreatedAt, t.ExpiresAt = fromMS(created), fromMS(expires)
	if used.Valid {
		u := fromMS(used.Int64)
		t.LastUsedAt = &u
	}
	return t, err
}

// CreateAPIToken implements domain.APITokenStore.
func (s *Store) CreateAPIToken(ctx context.Context, t domain.APIToken) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO api_tokens (`+apiTokenCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
		t.ID, t.UserID, t.Name, string(t.Scope), t.Hash, ms(t.CreatedAt), ms(t.ExpiresAt))
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "A token with this name already exists")
	}
	return err
}

// APITokenByHash implements domain.APITokenStore.
func (s *Store) APITokenByHash(ctx context.Context, hash string) (domain.APIToken, error) {
	return scanAPIToken(s.r.QueryRowContext(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE token_hash = ?`, hash))
}

// ListAPITokens implements domain.APITokenStore.
func (s *Store) ListAPITokens(ctx context.Context, userID string) ([]domain.APIToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE user_id = ? ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.APIToken{}
	for rows.Next() {
		t, err := scanAPIToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteAPIToken implements domain.APITokenStore.
func (s *Store) DeleteAPIToken(ctx context.Context, id, userID string) (domain.APIToken, error) {
	return scanAPIToken(s.w.QueryRowContext(ctx, `DELETE FROM api_tokens WHERE id = ? AND (? = '' OR user_id = ?) RETURNING `+apiTokenCols, id, userID, userID))
}

// DeleteUserAPITokens implements domain.APITokenStore.
func (s *Store) DeleteUserAPITokens(ctx context.Context, userID string) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM api_tokens WHERE user_id = ?`, userID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// TouchAPIToken implements domain.APITokenStore.
func (s *Store) TouchAPIToken(ctx context.Context, id string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`, ms(at), id, ms(at))
	return err
}
