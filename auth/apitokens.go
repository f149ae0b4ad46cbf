package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"kestrel/domain"
)

// TokenPrefix starts every API token's secret, so one is told apart from a
// session token (and found by secret scanners) at a glance.
const TokenPrefix = "kst_"

// MaxTokenLifetime caps an API token's expiry: a forgotten token ends.
const MaxTokenLifetime = 365 * 24 * time.Hour

// maxTokenName bounds a token's name (it appears in the audit log's actor).
const maxTokenName = 64

// IsAPIToken reports whether a bearer token is an API token (not a session).
func IsAPIToken(bearer string) bool { return strings.HasPrefix(bearer, TokenPrefix) }

// NewToken is the ask for an API token. ExpiresAt is a pointer so that a
// missing expiry is told apart from a zero one. Password (and Code, when
// the asker has two-factor authentication on) are the asker's own: a
// session alone does not make a token.
type NewToken struct {
	Name      string            `json:"name"`
	Scope     domain.TokenScope `json:"scope"`
	ExpiresAt *time.Time        `json:"expires_at"`
	Password  string            `json:"password"`
	Code      string            `json:"code"`
}

func (s *Service) validToken(n *NewToken, now time.Time) error {
	f := map[string]string{}
	n.Name = strings.TrimSpace(n.Name)
	if n.Name == "" {
		f["name"] = "Name is required"
	} else if utf8.RuneCountInString(n.Name) > maxTokenName {
		f["name"] = "Name must be at most 64 characters"
	} else if strings.ContainsAny(n.Name, "'\"\x00\r\n\t") {
		f["name"] = "Name may not contain quotes or control characters"
	}
	if !n.Scope.Valid() {
		f["scope"] = "Scope must be read, paper or trade"
	}
	switch {
	case n.ExpiresAt == nil || n.ExpiresAt.IsZero():
		f["expires_at"] = "Expiry is required"
	case !n.ExpiresAt.After(now):
		f["expires_at"] = "Expiry must be in the future"
	case n.ExpiresAt.Sub(now) > MaxTokenLifetime:
		f["expires_at"] = "Expiry must be within a year"
	}
	if n.Password == "" {
		f["password"] = "Enter your password to create a token"
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, "name", "scope", "expires_at", "password")
	}
	return nil
}

// CreateToken makes an API token for owner on actor's ask (the same user,
// or an operator) and returns its secret, which is not kept (only its
// hash) and so is shown this once. actor proves it is them again: their
// password, counted as a login from addr, and their second factor when it
// is on.
func (s *Service) CreateToken(ctx context.Context, actor, owner domain.User, n NewToken, addr string) (string, domain.APIToken, error) {
	now := s.clock.Now().Truncate(time.Millisecond)
	if err := s.validToken(&n, now); err != nil {
		return "", domain.APIToken{}, err
	}
	if err := s.reauthenticate(ctx, actor, addr, n.Password, n.Code); err != nil {
		return "", domain.APIToken{}, err
	}
	raw := make([]byte, 32) // 256 bits
	if _, err := rand.Read(raw); err != nil {
		return "", domain.APIToken{}, err
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	t := domain.APIToken{ID: uuid.NewString(), UserID: owner.ID, Name: n.Name, Scope: n.Scope, Hash: hashToken(secret),
		CreatedAt: now, ExpiresAt: n.ExpiresAt.UTC().Truncate(time.Millisecond)}
	if err := s.store.CreateAPIToken(ctx, t); err != nil {
		return "", domain.APIToken{}, err
	}
	return secret, t, nil
}

// revokeUserTokens ends every API token of userID (when its password
// changes or is reset, it is disabled, or it signs out everywhere).
func (s *Service) revokeUserTokens(ctx context.Context, userID string) error {
	if _, err := s.store.DeleteUserAPITokens(ctx, userID); err != nil {
		return fmt.Errorf("revoke API tokens: %w", err)
	}
	return nil
}

// Tokens lists userID's API tokens, newest first (never their secrets).
func (s *Service) Tokens(ctx context.Context, userID string) ([]domain.APIToken, error) {
	return s.store.ListAPITokens(ctx, userID)
}

// RevokeToken deletes the token id of userID (empty: of anyone, for
// operators); the next request with it gets 401.
func (s *Service) RevokeToken(ctx context.Context, id, userID string) (domain.APIToken, error) {
	return s.store.DeleteAPIToken(ctx, id, userID)
}

// AuthenticateToken returns the user an API token acts for and the token.
// An unknown (or revoked) or expired token, or one of a disabled user, is
// refused as unauthenticated.
func (s *Service) AuthenticateToken(ctx context.Context, secret string) (domain.User, domain.APIToken, error) {
	unauth := domain.Errorf(domain.EUnauthorized, "Invalid or revoked API token")
	t, err := s.store.APITokenByHash(ctx, hashToken(secret))
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, t, unauth
	} else if err != nil {
		return domain.User{}, t, err
	}
	now := s.clock.Now()
	if !now.Before(t.ExpiresAt) {
		return domain.User{}, t, domain.Errorf(domain.EUnauthorized, "This API token has expired")
	}
	u, err := s.store.UserByID(ctx, t.UserID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, t, unauth
	} else if err != nil {
		return domain.User{}, t, err
	}
	if u.Disabled {
		return domain.User{}, t, domain.Errorf(domain.EUnauthorized, "This account is disabled")
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= touchEvery {
		// At most a write a minute; a failed one leaves an older last use.
		if err := s.store.TouchAPIToken(ctx, t.ID, now); err != nil {
			slog.WarnContext(ctx, "API token last use not recorded", "err", err, "component", "auth")
		}
	}
	return u, t, nil
}
