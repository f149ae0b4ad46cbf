package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

const apiTokenCols = `id, user_id, name, scope, token_hash, created_at, expires_at, last_used_at`

func (c *Core) scanAPIToken(row Row) (domain.APIToken, error) {
	var t domain.APIToken
	var scope string
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &scope, &t.Hash, c.d.TimeDest(&t.CreatedAt), c.d.TimeDest(&t.ExpiresAt), c.d.NullTimeDest(&t.LastUsedAt))
	if err != nil {
		return t, c.notFound(err, "No such API token")
	}
	t.Scope = domain.TokenScope(scope)
	t.CreatedAt, t.ExpiresAt, t.LastUsedAt = utc(t.CreatedAt), utc(t.ExpiresAt), utcPtr(t.LastUsedAt)
	return t, nil
}

// CreateAPIToken implements domain.APITokenStore.
func (c *Core) CreateAPIToken(ctx context.Context, t domain.APIToken) error {
	_, err := c.w.Exec(ctx, `INSERT INTO api_tokens (`+apiTokenCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)`,
		t.ID, t.UserID, t.Name, string(t.Scope), t.Hash, c.d.Time(t.CreatedAt), c.d.Time(t.ExpiresAt))
	return c.conflict(err, "A token with this name already exists")
}

// APITokenByHash implements domain.APITokenStore.
func (c *Core) APITokenByHash(ctx context.Context, hash string) (domain.APIToken, error) {
	return c.scanAPIToken(c.r.QueryRow(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE token_hash = $1`, hash))
}

// ListAPITokens implements domain.APITokenStore.
func (c *Core) ListAPITokens(ctx context.Context, userID string) ([]domain.APIToken, error) {
	rows, err := c.r.Query(ctx, `SELECT `+apiTokenCols+` FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.APIToken{}, c.scanAPIToken)
}

// DeleteAPIToken implements domain.APITokenStore.
func (c *Core) DeleteAPIToken(ctx context.Context, id, userID string) (domain.APIToken, error) {
	return c.scanAPIToken(c.w.QueryRow(ctx, `DELETE FROM api_tokens WHERE id = $1 AND ($2 = '' OR user_id = $2) RETURNING `+apiTokenCols, id, userID))
}

// DeleteUserAPITokens implements domain.APITokenStore.
func (c *Core) DeleteUserAPITokens(ctx context.Context, userID string) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM api_tokens WHERE user_id = $1`, userID)
}

// TouchAPIToken implements domain.APITokenStore.
func (c *Core) TouchAPIToken(ctx context.Context, id string, at time.Time) error {
	_, err := c.w.Exec(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)`, c.d.Time(at), id)
	return err
}
