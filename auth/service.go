package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"kestrel/domain"
)

// kvAllowRegistration is the KV key of the operator's self-registration switch.
const kvAllowRegistration = "auth.allow_registration"

// Login failure limits: per (account, client address) and per client address
// (the proxy's client address with --trusted-proxies). There is
// deliberately no limit per account alone: it would let anyone lock an
// operator out by guessing from their own address. Guessing one account
// from many addresses is slowed by each address's own limit and by bcrypt.
// Registration attempts, successful or not, are limited per address and
// per email.
const (
	maxFailuresPerAccount = 5
	maxFailuresPerAddress = 20
	failureWindow         = 15 * time.Minute

	maxRegistrationsPerAddress = 10
	maxRegistrationsPerEmail   = 5
)

// Store is what auth keeps: accounts, sessions and realtime tickets, API
// tokens, second factors and the registration switch. It is a small part of
// domain.Store, so a reader sees what auth can touch and a test fakes only that.
type Store interface {
	domain.UserStore
	domain.SessionStore
	domain.APITokenStore
	domain.TOTPStore
	domain.KVStore
}

// Service implements accounts and sessions on a store.
type Service struct {
	store      Store
	clock      domain.Clock
	sessionTTL atomic.Int64 // nanoseconds; settings may change it while running
	maxAge     atomic.Int64 // nanoseconds; a session's absolute lifetime, however much it is used
	onEnd      atomic.Pointer[func(Ended)]
	onInval    atomic.Pointer[func(*Ended)]
	byAccount  *failureLimiter // keyed by account and address
	byAddress  *failureLimiter
	regAddress *failureLimiter // registration attempts per address
	regEmail   *failureLimiter // registration attempts per email
	// codeByAccount counts wrong second-factor codes per account, from
	// every address (maxCodeFailuresPerAccount).
	codeByAccount *failureLimiter
	sessions      *sessionCache
	// firstFromCLI: the first operator is not self-registered (RequireFirstOperatorFromCLI).
	firstFromCLI atomic.Bool
	// ticketLimit bounds the realtime tickets one session asks for (IssueTicket).
	ticketLimit     *failureLimiter
	ticketLimitOnce sync.Once
	tf              twoFactor
}

// NewService returns a Service whose tokens live for ttl (sliding).
func NewService(store Store, clock domain.Clock, ttl time.Duration) *Service {
	go dummyHash() // ready before the first login, so even that one takes the usual time
	s := &Service{
		store:         store,
		clock:         clock,
		byAccount:     newFailureLimiter(maxFailuresPerAccount, failureWindow),
		byAddress:     newFailureLimiter(maxFailuresPerAddress, failureWindow),
		regAddress:    newFailureLimiter(maxRegistrationsPerAddress, failureWindow),
		regEmail:      newFailureLimiter(maxRegistrationsPerEmail, failureWindow),
		codeByAccount: newFailureLimiter(maxCodeFailuresPerAccount, failureWindow),
		sessions:      newSessionCache(),
	}
	s.SetSessionTTL(ttl)
	s.SetSessionMaxAge(DefaultSessionMaxAge)
	return s
}

// DefaultSessionMaxAge is a session's absolute lifetime unless configured.
const DefaultSessionMaxAge = 12 * time.Hour

// SetSessionTTL changes how long a token stays valid without use.
func (s *Service) SetSessionTTL(d time.Duration) { s.sessionTTL.Store(int64(d)) }

// SetSessionMaxAge changes how long a token stays valid at most after sign-in,
// however much it is used.
func (s *Service) SetSessionMaxAge(d time.Duration) { s.maxAge.Store(int64(d)) }

func (s *Service) ttl() time.Duration { return time.Duration(s.sessionTTL.Load()) }

func (s *Service) maxAgeOf(ss domain.Session) time.Time {
	return ss.CreatedAt.Add(time.Duration(s.maxAge.Load()))
}

// expiryFrom is when a session used at now expires: a full sliding lifetime
// later, but never after its absolute end.
func (s *Service) expiryFrom(ss domain.Session, now time.Time) time.Time {
	exp := now.Add(s.ttl())
	if end := s.maxAgeOf(ss); exp.After(end) {
		return end
	}
	return exp
}

// NewUser is what registration and user creation accept.
type NewUser struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	Password string `json:"password"`
	Role     string `json:"role,omitempty"`
}

// Validate checks the fields and normalises the email.
func (n *NewUser) Validate() error {
	n.Email = strings.ToLower(strings.TrimSpace(n.Email))
	n.Name = strings.TrimSpace(n.Name)
	f := map[string]string{}
	if n.Email == "" {
		f["email"] = "Email is required"
	} else if a, err := mail.ParseAddress(n.Email); err != nil || a.Address != n.Email {
		f["email"] = "Enter a valid email address"
	}
	if n.Name == "" {
		f["name"] = "Name is required"
	} else if utf8.RuneCountInString(n.Name) > 100 {
		f["name"] = "Name must be at most 100 characters"
	}
	if m := passwordProblem(n.Password); m != "" {
		f["password"] = m
	}
	if n.Role != "" && !domain.Role(n.Role).Valid() {
		f["role"] = "Role must be trader or operator"
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, "email", "name", "password", "role")
	}
	return nil
}

// passwordProblem is the rule every new password follows, or "" when it does.
func passwordProblem(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < 8:
		return "Password must be at least 8 characters"
	case len(pw) > 72: // bcrypt reads at most 72 bytes
		return "Password must be at most 72 bytes"
	case isCommonPassword(pw):
		return "This password is one of the 10,000 most common and would be guessed quickly; choose another"
	}
	return ""
}

// Register creates an account by self-registration. The first account becomes
// an operator; later ones are traders and need the operator's switch on.
func (s *Service) Register(ctx context.Context, n NewUser) (domain.User, error) {
	n.Role = ""
	if err := n.Validate(); err != nil {
		return domain.User{}, err
	}
	count, err := s.store.CountUsers(ctx)
	if err != nil {
		return domain.User{}, err
	}
	if count == 0 && s.firstFromCLI.Load() {
		return domain.User{}, s.refuseFirstOperator()
	}
	if count == 0 {
		u, err := s.create(ctx, n, domain.RoleOperator, true)
		if domain.ErrorMessage(err) != domain.ErrNotFirstUser {
			return u, err
		} // someone else was first: fall through to the normal rules
	}
	allowed, err := s.RegistrationOpen(ctx)
	if err != nil {
		return domain.User{}, err
	}
	if !allowed {
		return domain.User{}, domain.Errorf(domain.EForbidden, "Self-registration is disabled; ask an operator for an account")
	}
	return s.create(ctx, n, domain.RoleTrader, false)
}

// RegisterFrom is Register for a request from addr: attempts, successful
// or not, are limited per address and per email.
func (s *Service) RegisterFrom(ctx context.Context, n NewUser, addr string) (domain.User, error) {
	now := s.clock.Now()
	if ok, wait, first := s.regAddress.count(limitAddr(addr), now); !ok {
		return domain.User{}, tooMany("Too many registration attempts", wait, first)
	}
	email := strings.ToLower(strings.TrimSpace(n.Email))
	if len(email) > maxEmailBytes {
		return domain.User{}, domain.FieldErrors(map[string]string{"email": "Email must be at most 254 bytes"}, "email")
	}
	if ok, wait, first := s.regEmail.count(email, now); !ok {
		return domain.User{}, tooMany("Too many registration attempts", wait, first)
	}
	return s.Register(ctx, n)
}

// CreateUser creates an account on an operator's behalf (or from the CLI).
func (s *Service) CreateUser(ctx context.Context, n NewUser) (domain.User, error) {
	if n.Role == "" {
		n.Role = string(domain.RoleTrader)
	}
	if err := n.Validate(); err != nil {
		return domain.User{}, err
	}
	return s.create(ctx, n, domain.Role(n.Role), false)
}

func (s *Service) create(ctx context.Context, n NewUser, role domain.Role, onlyIfFirst bool) (domain.User, error) {
	hash, err := HashPassword(n.Password)
	if err != nil {
		return domain.User{}, fmt.Errorf("hash password: %w", err)
	}
	u := domain.User{ID: uuid.NewString(), Email: n.Email, Name: n.Name, Role: role, CreatedAt: s.clock.Now().Truncate(time.Millisecond)}
	if err := s.store.CreateUser(ctx, u, hash, onlyIfFirst); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// RegistrationOpen reports whether self-registration is switched on.
func (s *Service) RegistrationOpen(ctx context.Context) (bool, error) {
	v, err := s.store.GetValue(ctx, kvAllowRegistration)
	if domain.ErrorCode(err) == domain.ENotFound {
		return false, nil
	}
	return v == "true", err
}

// SetRegistrationOpen switches self-registration on or off.
func (s *Service) SetRegistrationOpen(ctx context.Context, open bool) error {
	return s.store.PutValue(ctx, kvAllowRegistration, fmt.Sprint(open))
}

// Login checks credentials and opens a session, returning its bearer token.
// addr is the client address used for rate limiting.
func (s *Service) Login(ctx context.Context, email, password, addr string) (string, domain.User, error) {
	token, u, _, err := s.LoginWithCode(ctx, email, password, "", addr)
	return token, u, err
}

// LoginWithCode is Login with a second factor: code is a TOTP or recovery
// code (see secondFactor). recovery is set when this sign-in turned TOTP on.
func (s *Service) LoginWithCode(ctx context.Context, email, password, code, addr string) (token string, _ domain.User, recovery []string, _ error) {
	email = strings.ToLower(strings.TrimSpace(email))
	now, addr := s.clock.Now(), limitAddr(addr)
	if f := loginProblems(email, password, code); len(f) > 0 {
		// Refused before the email is used anywhere: no limiter key, no
		// lookup. The attempt counts against the address alone (a key of
		// fixed size), so a flood of them is refused like failed logins
		// and its audit entries stay as few.
		if ok, wait, first := s.byAddress.count(addr, now); !ok {
			return "", domain.User{}, nil, tooMany("Too many failed login attempts", wait, first)
		}
		return "", domain.User{}, nil, domain.FieldErrors(f, "email", "password", "code")
	}
	// The address first: an address past its limit adds no key per email.
	accKey := accountKey(email, addr)
	ok, wait, first, err := s.byAddress.reserve(ctx, addr, now)
	if err != nil || !ok {
		return "", domain.User{}, nil, refusal(err, "Too many failed login attempts", wait, first)
	}
	if ok, wait, first, err = s.byAccount.reserve(ctx, accKey, now); err != nil || !ok {
		s.byAddress.settle(addr, false)
		return "", domain.User{}, nil, refusal(err, "Too many failed login attempts", wait, first)
	}
	// Both attempts are reserved; a wrong password settles them as failures.
	u, hash, err := s.store.UserByEmail(ctx, email)
	if err != nil && domain.ErrorCode(err) != domain.ENotFound {
		s.byAccount.settle(accKey, false)
		s.byAddress.settle(addr, false)
		return "", domain.User{}, nil, err
	}
	if err != nil {
		hash = string(dummyHash())
	}
	if !CheckPassword(hash, password) || err != nil {
		s.byAccount.settle(accKey, true)
		s.byAddress.settle(addr, true)
		return "", domain.User{}, nil, domain.Errorf(domain.EUnauthorized, "Invalid email or password")
	}
	// The password was right: its reservations end without a failure. The
	// account's failures are cleared only after the second factor, so a
	// password alone does not clear failed codes.
	s.byAccount.settle(accKey, false)
	s.byAddress.settle(addr, false)
	if u.Disabled {
		return "", domain.User{}, nil, domain.Errorf(domain.EForbidden, "This account is disabled; ask an operator to enable it")
	}
	if recovery, err = s.secondFactor(ctx, u, code, addr, now); err != nil {
		return "", domain.User{}, nil, err
	}
	s.byAccount.reset(accountKey(email, addr)) // only now: a password alone must not clear failed codes
	s.codeByAccount.reset(u.ID)
	token, err = s.openSession(ctx, u.ID, now)
	if err != nil {
		return "", domain.User{}, nil, err
	}
	if err := s.store.SetLastLogin(ctx, u.ID, now); err != nil {
		return "", domain.User{}, nil, err
	}
	t := now.Truncate(time.Millisecond)
	u.LastLogin = &t
	return token, u, recovery, nil
}

// OpenSession starts a session for an already authenticated user (after registration).
func (s *Service) OpenSession(ctx context.Context, userID string) (string, error) {
	return s.openSession(ctx, userID, s.clock.Now())
}

func (s *Service) openSession(ctx context.Context, userID string, now time.Time) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	c := clientFrom(ctx)
	ss := domain.Session{TokenHash: hashToken(token), UserID: userID, CreatedAt: now, LastUsedAt: now, UserAgent: c.UserAgent, Remote: c.Addr}
	ss.ExpiresAt = s.expiryFrom(ss, now)
	return token, s.store.CreateSession(ctx, ss)
}

// Authenticate returns the user a bearer token belongs to. Sessions slide: use
// in the second half of the lifetime pushes the expiry out by a full lifetime,
// up to the session's absolute end (SetSessionMaxAge).
func (s *Service) Authenticate(ctx context.Context, token string) (domain.User, error) {
	u, ss, err := s.session(ctx, token)
	if err != nil {
		return domain.User{}, err
	}
	now := s.clock.Now()
	if ss.ExpiresAt.Sub(now) < s.ttl()/2 {
		if next := s.expiryFrom(ss, now); next.After(ss.ExpiresAt) {
			if err := s.store.ExtendSession(ctx, ss.TokenHash, next); err != nil {
				return domain.User{}, err
			}
			s.sessions.extended(ss.TokenHash, next)
		}
	}
	s.touch(ctx, ss, now)
	return u, nil
}

// Check reports whether token still belongs to a live session of an enabled
// user, without extending it (the realtime connections' periodic check).
func (s *Service) Check(ctx context.Context, token string) error {
	_, _, err := s.session(ctx, token)
	return err
}

// session looks token up and refuses it when it has expired (by idleness or
// age) or its user is disabled or gone; such a session is deleted.
func (s *Service) session(ctx context.Context, token string) (domain.User, domain.Session, error) {
	if token == "" {
		return domain.User{}, domain.Session{}, domain.Errorf(domain.EUnauthorized, "Authentication required")
	}
	return s.sessionByHash(ctx, hashToken(token))
}

// sessionByHash is session for a session named by its token's hash.
func (s *Service) sessionByHash(ctx context.Context, hash string) (domain.User, domain.Session, error) {
	unauth := domain.Errorf(domain.EUnauthorized, "Authentication required")
	now := s.clock.Now()
	if c, ok := s.sessions.get(hash); ok {
		if s.expired(c.ss, now) {
			s.sessions.drop(hash)
			s.store.DeleteSession(ctx, hash)
			return domain.User{}, c.ss, domain.Errorf(domain.EUnauthorized, "Session expired; please sign in again")
		}
		return c.u, c.ss, nil
	}
	gen := s.sessions.generation()
	ss, err := s.store.SessionByHash(ctx, hash)
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, ss, unauth
	} else if err != nil {
		return domain.User{}, ss, err
	}
	if s.expired(ss, now) {
		s.store.DeleteSession(ctx, ss.TokenHash)
		return domain.User{}, ss, domain.Errorf(domain.EUnauthorized, "Session expired; please sign in again")
	}
	u, err := s.store.UserByID(ctx, ss.UserID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, ss, unauth
	} else if err != nil {
		return domain.User{}, ss, err
	}
	if u.Disabled {
		s.store.DeleteSession(ctx, ss.TokenHash)
		return domain.User{}, ss, domain.Errorf(domain.EUnauthorized, "This account is disabled")
	}
	s.sessions.put(gen, hash, cachedSession{ss: ss, u: u})
	return u, ss, nil
}

// expired reports whether a session has ended by idleness or by age at now.
func (s *Service) expired(ss domain.Session, now time.Time) bool {
	return !now.Before(ss.ExpiresAt) || !now.Before(s.maxAgeOf(ss))
}

// Logout revokes the session of token.
func (s *Service) Logout(ctx context.Context, token string) error {
	defer s.sessions.drop(hashToken(token)) // after the delete (see sessionCache.generation)
	if err := s.store.DeleteSession(ctx, hashToken(token)); err != nil {
		return err
	}
	s.announce(Ended{SessionID: hashToken(token)})
	return nil
}

// PruneSessions deletes expired sessions.
func (s *Service) PruneSessions(ctx context.Context) (int64, error) {
	return s.store.DeleteExpiredSessions(ctx, s.clock.Now())
}

// accountKey is the rate-limit key of one account tried from one address.
func accountKey(email, addr string) string { return email + "\x00" + limitAddr(addr) }

// Bounds of what a sign-in accepts, checked before anything else: an email
// address is at most 254 bytes (RFC 5321's path limit), a password at most
// 1,024 bytes (bcrypt reads 72; new passwords are held to that), a code at
// most 64 bytes (a recovery code, spaced, is 19).
const (
	maxEmailBytes         = 254
	maxLoginPasswordBytes = 1024
	maxCodeBytes          = 64
)

// loginProblems are the field errors of a sign-in's input, before use.
func loginProblems(email, password, code string) map[string]string {
	f := map[string]string{}
	switch {
	case email == "":
		f["email"] = "Email is required"
	case len(email) > maxEmailBytes:
		f["email"] = "Email must be at most 254 bytes"
	}
	switch {
	case password == "":
		f["password"] = "Password is required"
	case len(password) > maxLoginPasswordBytes:
		f["password"] = "Password must be at most 1024 bytes"
	}
	if len(code) > maxCodeBytes {
		f["code"] = "Code must be at most 64 characters"
	}
	return f
}

// SessionID names token's session without revealing the token (its hash).
func SessionID(token string) string { return hashToken(token) }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
