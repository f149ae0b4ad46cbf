package domain

import (
	"context"
	"time"
)

// Role is what a user may do. Traders trade and see everything; operators also
// change platform settings, resume after an emergency stop and manage users.
type Role string

const (
	RoleTrader   Role = "trader"
	RoleOperator Role = "operator"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleTrader || r == RoleOperator }

// User is an account. The password hash never leaves the store and auth packages.
type User struct {
	ID        string     `json:"id"`
	Email     string     `json:"email"`
	Name      string     `json:"name"`
	Role      Role       `json:"role"`
	CreatedAt time.Time  `json:"created_at"`
	LastLogin *time.Time `json:"last_login"`
	// Disabled accounts cannot sign in and have no sessions.
	Disabled bool `json:"disabled"`
}

// Session is a bearer token's server-side record; only the token's hash is kept.
type Session struct {
	TokenHash string
	UserID    string
	CreatedAt time.Time
	ExpiresAt time.Time
	// LastUsedAt is when a request last used the session, recorded to the
	// minute (auth writes it at most once a minute per session).
	LastUsedAt time.Time
	// UserAgent and Remote describe the client that signed in (as it said
	// and as seen by the server), for the user's list of their sessions.
	UserAgent string
	Remote    string
}

// Ticket is a single-use, short-lived admission to the realtime socket,
// bound to the session that asked for it; only its hash is kept.
type Ticket struct {
	Hash        string
	SessionHash string
	ExpiresAt   time.Time
}

// AuditEntry records who did what.
type AuditEntry struct {
	ID        int64     `json:"id"`
	At        time.Time `json:"at"`
	UserID    string    `json:"user_id"`
	Actor     string    `json:"actor"`
	Action    string    `json:"action"`
	Status    int       `json:"status"`
	RequestID string    `json:"request_id"`
	Remote    string    `json:"remote"`
	Detail    string    `json:"detail"`
	// Notify are notification events that belong to this entry (a person's
	// risk refusal, whose only stored record is its audit entry): stored in
	// the entry's transaction, so an event exists iff its entry does.
	Notify []NotifyEvent `json:"-"`
}

// UserStore persists accounts.
type UserStore interface {
	// CreateUser inserts u with the given password hash. It returns a conflict
	// error when the email is taken and, when onlyIfFirst is set, a conflict
	// error with ErrNotFirstUser's message when any user already exists (the
	// check and the insert are one transaction).
	CreateUser(ctx context.Context, u User, passwordHash string, onlyIfFirst bool) error
	// UserByEmail returns the user and password hash, or a not_found error.
	UserByEmail(ctx context.Context, email string) (User, string, error)
	// UserByID returns the user or a not_found error.
	UserByID(ctx context.Context, id string) (User, error)
	// ListUsers returns every user, oldest first.
	ListUsers(ctx context.Context) ([]User, error)
	// SetUserRole changes a role; not_found when there is no such user.
	SetUserRole(ctx context.Context, id string, role Role) error
	// SetUserDisabled disables or enables an account; not_found when there is no such user.
	SetUserDisabled(ctx context.Context, id string, disabled bool) error
	// SetPasswordHash replaces an account's password hash; not_found when there is no such user.
	SetPasswordHash(ctx context.Context, id string, hash string) error
	// SetLastLogin records a successful login.
	SetLastLogin(ctx context.Context, id string, at time.Time) error
	// CountUsers returns how many accounts exist.
	CountUsers(ctx context.Context) (int, error)
}

// ErrNotFirstUser is the message of the conflict CreateUser returns when
// onlyIfFirst is set and a user exists.
const ErrNotFirstUser = "an account already exists"

// SessionStore persists bearer-token sessions.
type SessionStore interface {
	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns the session or a not_found error.
	SessionByHash(ctx context.Context, tokenHash string) (Session, error)
	// ExtendSession moves a session's expiry.
	ExtendSession(ctx context.Context, tokenHash string, expiresAt time.Time) error
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteUserSessions removes every session of userID except the one whose
	// hash is keep (empty: none kept) and returns how many it removed.
	DeleteUserSessions(ctx context.Context, userID, keep string) (int64, error)
	// DeleteExpiredSessions removes sessions (and realtime tickets) that
	// expired before now.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
	// ListUserSessions returns userID's sessions, newest first.
	ListUserSessions(ctx context.Context, userID string) ([]Session, error)
	// TouchSession records that the session was used at.
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	// CreateTicket stores a realtime ticket.
	CreateTicket(ctx context.Context, t Ticket) error
	// ConsumeTicket deletes the ticket and returns it, or a not_found error
	// when there is none: a ticket is consumed once, across every instance.
	ConsumeTicket(ctx context.Context, hash string) (Ticket, error)
}

// AuditStore appends to and reads the audit log.
type AuditStore interface {
	// AppendAudit stores e and its Notify events in one transaction: both
	// or neither.
	AppendAudit(ctx context.Context, e AuditEntry) error
	// ListAudit returns the newest entries first.
	ListAudit(ctx context.Context, limit int) ([]AuditEntry, error)
}

// KVStore keeps small named platform values (flags, settings documents).
type KVStore interface {
	// GetValue returns the value or a not_found error.
	GetValue(ctx context.Context, key string) (string, error)
	PutValue(ctx context.Context, key, value string) error
}

// KVCreator stores a value only where none is: CreateValue reports whether
// it stored value (false: key already had one, which is left as it is), so
// instances racing to create the same value agree on the first one stored.
type KVCreator interface {
	CreateValue(ctx context.Context, key, value string) (bool, error)
}

// Store is everything the application persists.
type Store interface {
	UserStore
	SessionStore
	APITokenStore
	AuditStore
	KVStore
	TOTPStore
	PortfolioStore
	AlertStore
	LedgerStore
	LedgerAccounts
	PromotionStore
	LogStore
	StrategyStore
	BacktestStore
	JobStore
	SweepStore
	CandleStore
	NotifyStore
	QuotaStore
	RetentionStore
	Ping(ctx context.Context) error
	Close() error
}

// Clock tells the time; injected so tests and backtests control it.
type Clock interface{ Now() time.Time }

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }
