package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

const apiTokenCols = `id, user_id, name, scope, token_hash, created_at, expires_at, last_used_at`

func scanAPIToken(row pgRow) (domain.APIToken, error) {
	var t domain.APIToken
	var scope string
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &scope, &t.Hash, &t.CreatedAt, &t.ExpiresAt, &t.LastUsedAt)
	if err != nil {
		return t, notFound(err, "No such API token")
	}
	t.Scope = domain.TokenScope(scope)
	t.CreatedAt, t.ExpiresAt = t.CreatedAt.UTC(), t.ExpiresAt.UTC()
	if t.LastUsedAt != nil {
		u := t.LastUsedAt.UTC()
		t.LastUsedAt = &u
	}
	return t, nil
}

// CreateAPIToken implements domain.APITokenStore.
func (s *Store) CreateAPIToken(ctx context.Context, t domain.APIToken) error {
	_, err := s.db.Exec(ctx, `INSERT INTO api_tokens (`+apiTokenCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)`,
		t.ID, t.UserID, t.Name, string(t.Scope), t.Hash, t.CreatedAt, t.ExpiresAt)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "A token with this name already exists")
	}
	return err
}

// APITokenByHash implements domain.APITokenStore.
func (s *Store) APITokenByHash(ctx context.Context, hash string) (domain.APIToken, error) {
	return scanAPIToken(s.db.QueryRow(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE token_hash = $1`, hash))
}

// ListAPITokens implements domain.APITokenStore.
func (s *Store) ListAPITokens(ctx context.Context, userID string) ([]domain.APIToken, error) {
	rows, err := s.db.Query(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.APIToken{}
	for rows.Next() {
		t, err := scanAPIToken(rows.row())
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteAPIToken implements domain.APITokenStore.
func (s *Store) DeleteAPIToken(ctx context.Context, id, userID string) (domain.APIToken, error) {
	return scanAPIToken(s.db.QueryRow(ctx, `DELETE FROM api_tokens WHERE id = $1 AND ($2 = '' OR user_id = $2) RETURNING `+apiTokenCols, id, userID))
}

// DeleteUserAPITokens implements domain.APITokenStore.
func (s *Store) DeleteUserAPITokens(ctx context.Context, userID string) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM api_tokens WHERE user_id = $1`, userID)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// TouchAPIToken implements domain.APITokenStore.
func (s *Store) TouchAPIToken(ctx context.Context, id string, at time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)`, at, id)
	return err
}
