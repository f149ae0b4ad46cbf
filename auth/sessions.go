package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"log/slog"
	"time"
	"unicode/utf8"

	"kestrel/domain"
)

// Client is what the server knows of the client that signs in, kept with
// the session so that its user can tell their sessions apart.
type Client struct {
	Addr      string
	UserAgent string
}

type clientKey struct{}

// WithClient puts the signing-in client in ctx for Login, Register's session and OpenSession.
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

func clientFrom(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	c.UserAgent = truncate(c.UserAgent, 256)
	c.Addr = truncate(c.Addr, 64)
	return c
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// touchEvery is how often a session's last use is written: once a minute
// at most, so a busy session costs no write per request.
const touchEvery = time.Minute

// touch records that ss was used at now, at most once per touchEvery. A
// failed write leaves the earlier time in the store (the list then shows an
// older last use) and is not retried before touchEvery has passed again, so
// a database refusing writes costs no write attempt per request; the
// request itself goes on.
func (s *Service) touch(ctx context.Context, ss domain.Session, now time.Time) {
	if now.Sub(ss.LastUsedAt) < touchEvery {
		return
	}
	s.sessions.used(ss.TokenHash, now)
	if err := s.store.TouchSession(ctx, ss.TokenHash, now); err != nil {
		slog.WarnContext(ctx, "session last use not recorded", "err", err, "component", "auth")
	}
}

// SessionInfo is one of a user's sessions as they see it. ID names it
// without being usable to sign in (a hash of the token's hash).
type SessionInfo struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	UserAgent  string    `json:"user_agent"`
	Remote     string    `json:"remote"`
	Current    bool      `json:"current"`
}

func publicSessionID(tokenHash string) string {
	sum := sha256.Sum256([]byte("session-id:" + tokenHash))
	return hex.EncodeToString(sum[:16])
}

// Sessions lists u's live sessions, newest first, marking the one of token.
func (s *Service) Sessions(ctx context.Context, u domain.User, token string) ([]SessionInfo, error) {
	list, err := s.store.ListUserSessions(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	now, current := s.clock.Now(), hashToken(token)
	out := []SessionInfo{}
	for _, ss := range list {
		if s.expired(ss, now) {
			continue
		}
		exp := ss.ExpiresAt
		if end := s.maxAgeOf(ss); exp.After(end) {
			exp = end
		}
		out = append(out, SessionInfo{ID: publicSessionID(ss.TokenHash), CreatedAt: ss.CreatedAt, LastUsedAt: ss.LastUsedAt,
			ExpiresAt: exp, UserAgent: ss.UserAgent, Remote: ss.Remote, Current: ss.TokenHash == current})
	}
	return out, nil
}

// EndOtherSessions signs u out everywhere but the session of token (the one
// asking stays signed in, to change the password next), revokes u's API
// tokens (a token is a session too), and says how many sessions it ended.
func (s *Service) EndOtherSessions(ctx context.Context, u domain.User, token string) (int, error) {
	list, err := s.store.ListUserSessions(ctx, u.ID)
	if err != nil {
		return 0, err
	}
	keep := hashToken(token)
	n := 0
	for _, ss := range list {
		if ss.TokenHash != keep {
			n++
		}
	}
	if err := s.revokeUserTokens(ctx, u.ID); err != nil {
		return 0, err
	}
	return n, s.endUserSessions(ctx, u.ID, keep)
}

// EndSession ends one of u's sessions by its public ID (not_found when u
// has none such); ending the current one is a logout.
func (s *Service) EndSession(ctx context.Context, u domain.User, id string) error {
	list, err := s.store.ListUserSessions(ctx, u.ID)
	if err != nil {
		return err
	}
	for _, ss := range list {
		if publicSessionID(ss.TokenHash) == id {
			defer s.sessions.drop(ss.TokenHash) // after the delete (see sessionCache.generation)
			if err := s.store.DeleteSession(ctx, ss.TokenHash); err != nil {
				return err
			}
			s.announce(Ended{SessionID: ss.TokenHash})
			return nil
		}
	}
	return domain.Errorf(domain.ENotFound, "No such session")
}

// TicketTTL is how long a realtime ticket admits a connection.
const TicketTTL = 30 * time.Second

// maxTicketsPerMinute is how many tickets one session may ask for a minute.
const maxTicketsPerMinute = 30

// IssueTicket returns a single-use ticket, valid for TicketTTL, that opens
// one realtime connection for the session of token: the browser puts it in
// the socket's URL instead of the session token, so the token never
// appears in a URL (proxy logs, history).
func (s *Service) IssueTicket(ctx context.Context, token string) (string, time.Time, error) {
	_, ss, err := s.session(ctx, token)
	if err != nil {
		return "", time.Time{}, err
	}
	// The web app asks once per connection attempt (at most one each 5 s);
	// the bound keeps a hostile session from filling the ticket table.
	s.ticketLimitOnce.Do(func() { s.ticketLimit = newFailureLimiter(maxTicketsPerMinute, time.Minute) })
	now := s.clock.Now()
	if ok, wait, _ := s.ticketLimit.count(ss.TokenHash, now); !ok {
		return "", time.Time{}, domain.Errorf(domain.ETooMany, "Too many realtime tickets for this session; try again in %d s", int(wait.Seconds())+1)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", time.Time{}, err
	}
	ticket := base64.RawURLEncoding.EncodeToString(raw)
	exp := now.Add(TicketTTL)
	if err := s.store.CreateTicket(ctx, domain.Ticket{Hash: hashToken(ticket), SessionHash: ss.TokenHash, ExpiresAt: exp}); err != nil {
		return "", time.Time{}, err
	}
	return ticket, exp, nil
}

// RedeemTicket consumes ticket and returns the user and the session (its
// ID, as SessionID names it) it was issued for, if the ticket is unexpired
// and the session still valid. A ticket is redeemed once.
func (s *Service) RedeemTicket(ctx context.Context, ticket string) (domain.User, string, error) {
	unauth := domain.Errorf(domain.EUnauthorized, "Authentication required")
	if ticket == "" {
		return domain.User{}, "", unauth
	}
	t, err := s.store.ConsumeTicket(ctx, hashToken(ticket))
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, "", domain.Errorf(domain.EUnauthorized, "Unknown or used realtime ticket; ask for a new one")
	} else if err != nil {
		return domain.User{}, "", err
	}
	if !s.clock.Now().Before(t.ExpiresAt) {
		return domain.User{}, "", domain.Errorf(domain.EUnauthorized, "Realtime ticket expired; ask for a new one")
	}
	u, _, err := s.sessionByHash(ctx, t.SessionHash)
	return u, t.SessionHash, err
}

// CheckSession reports whether the session sessionID (SessionID of its
// token) is still valid, without extending it.
func (s *Service) CheckSession(ctx context.Context, sessionID string) error {
	_, _, err := s.sessionByHash(ctx, sessionID)
	return err
}
