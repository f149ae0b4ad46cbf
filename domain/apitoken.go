package domain

import (
	"context"
	"time"
)

// TokenScope is what an API token may do on its user's behalf.
type TokenScope string

const (
	// ScopeRead may only read (GET routes marked readable).
	ScopeRead TokenScope = "read"
	// ScopePaper may also trade, but only while the venue is the sandbox.
	ScopePaper TokenScope = "paper"
	// ScopeTrade may trade on any venue.
	ScopeTrade TokenScope = "trade"
)

// Valid reports whether s is a known scope.
func (s TokenScope) Valid() bool { return s == ScopeRead || s == ScopePaper || s == ScopeTrade }

// APIToken is a long-lived bearer token for agents and scripts; only the
// secret's hash is kept, and the secret is shown once, at creation.
type APIToken struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Name       string     `json:"name"`
	Scope      TokenScope `json:"scope"`
	Hash       string     `json:"-"`
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  time.Time  `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
}

// APITokenStore persists API tokens.
type APITokenStore interface {
	// CreateAPIToken stores t; a conflict error when its user already has a
	// token of that name.
	CreateAPIToken(ctx context.Context, t APIToken) error
	// APITokenByHash returns the token or a not_found error.
	APITokenByHash(ctx context.Context, hash string) (APIToken, error)
	// ListAPITokens returns userID's tokens, newest first.
	ListAPITokens(ctx context.Context, userID string) ([]APIToken, error)
	// DeleteAPIToken revokes the token id of userID (empty: of anyone) and
	// returns it; not_found when there is none such.
	DeleteAPIToken(ctx context.Context, id, userID string) (APIToken, error)
	// DeleteUserAPITokens revokes every token of userID and returns how
	// many there were.
	DeleteUserAPITokens(ctx context.Context, userID string) (int64, error)
	// TouchAPIToken records that the token was used at (never moving it back).
	TouchAPIToken(ctx context.Context, id string, at time.Time) error
}
