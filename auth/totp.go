package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"kestrel/domain"
)

// Two-factor authentication: RFC 6238 codes (SHA-1, 6 digits, 30 s) as every
// authenticator app reads them, one step of clock skew either way, each step
// accepted once per account; plus single-use recovery codes.
const (
	totpIssuer    = "Kestrel"
	totpPeriod    = 30
	totpSkew      = 1
	recoveryCount = 10
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Sealer encrypts secrets at rest, each bound to its field (settings.Sealer).
type Sealer interface {
	Seal(field, plain string) (string, error)
	Open(field, sealed string) (string, error)
}

// TOTPField is the field a TOTP secret is sealed for: it binds the sealed
// secret to its account, so one account's secret cannot be moved to another.
func TOTPField(userID string) string { return "auth.totp." + userID }

// twoFactor is the Service's TOTP configuration, set while running.
type twoFactor struct {
	sealer           atomic.Pointer[Sealer]
	requireOperators atomic.Bool
}

// SetSealer gives the service the key TOTP secrets are sealed with.
func (s *Service) SetSealer(x Sealer) { s.tf.sealer.Store(&x) }

// SetRequireOperatorTOTP makes operators sign in with a second factor; an
// operator without one enrols during sign-in (see Login).
func (s *Service) SetRequireOperatorTOTP(on bool) { s.tf.requireOperators.Store(on) }

// TOTPStatus is what an account sees of its two-factor authentication.
type TOTPStatus struct {
	Enabled       bool `json:"enabled"`
	Pending       bool `json:"pending"` // set up, waiting for the first code
	RecoveryLeft  int  `json:"recovery_codes_left"`
	Required      bool `json:"required"` // this account must use it (operators, when the platform says so)
	PeriodSeconds int  `json:"period_seconds"`
}

// TOTPSetup is a new, not yet active secret for an authenticator app.
type TOTPSetup struct {
	Secret string `json:"secret"` // base32, for typing in
	URI    string `json:"otpauth_uri"`
}

// TOTPStatus reports u's two-factor state.
func (s *Service) TOTPStatus(ctx context.Context, u domain.User) (TOTPStatus, error) {
	st := TOTPStatus{Required: s.totpRequired(u), PeriodSeconds: totpPeriod}
	t, err := s.store.TOTPByUser(ctx, u.ID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return st, nil
	} else if err != nil {
		return st, err
	}
	st.Enabled, st.Pending = t.ConfirmedAt != nil, t.ConfirmedAt == nil
	if st.Enabled {
		st.RecoveryLeft = t.RecoveryLeft
	}
	return st, nil
}

func (s *Service) totpRequired(u domain.User) bool {
	return u.Role == domain.RoleOperator && s.tf.requireOperators.Load()
}

// SetupTOTP stores a new secret for u, inactive until ConfirmTOTP. A pending
// secret is kept, so asking again shows the one already scanned.
func (s *Service) SetupTOTP(ctx context.Context, u domain.User) (TOTPSetup, error) {
	t, err := s.store.TOTPByUser(ctx, u.ID)
	switch {
	case err == nil && t.ConfirmedAt != nil:
		return TOTPSetup{}, domain.Errorf(domain.EConflict, "Two-factor authentication is already on; turn it off first to change the authenticator")
	case err == nil:
		secret, err := s.openSecret(u.ID, t.Secret)
		if err != nil {
			return TOTPSetup{}, err
		}
		return setupFor(u, secret)
	case domain.ErrorCode(err) != domain.ENotFound:
		return TOTPSetup{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: u.Email})
	if err != nil {
		return TOTPSetup{}, err
	}
	sealer := s.tf.sealer.Load()
	if sealer == nil {
		return TOTPSetup{}, domain.Errorf(domain.EUnavailable, "Two-factor authentication is unavailable: the secret key is not loaded")
	}
	sealed, err := (*sealer).Seal(TOTPField(u.ID), key.Secret())
	if err != nil {
		return TOTPSetup{}, err
	}
	if err := s.store.PutPendingTOTP(ctx, u.ID, sealed); err != nil {
		return TOTPSetup{}, err
	}
	return TOTPSetup{Secret: key.Secret(), URI: key.URL()}, nil
}

func setupFor(u domain.User, secret string) (TOTPSetup, error) {
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil {
		return TOTPSetup{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: u.Email, Secret: raw})
	if err != nil {
		return TOTPSetup{}, err
	}
	return TOTPSetup{Secret: key.Secret(), URI: key.URL()}, nil
}

func (s *Service) openSecret(userID, sealed string) (string, error) {
	sealer := s.tf.sealer.Load()
	if sealer == nil {
		return "", domain.Errorf(domain.EUnavailable, "Two-factor authentication is unavailable: the secret key is not loaded")
	}
	plain, err := (*sealer).Open(TOTPField(userID), sealed)
	if err != nil {
		return "", domain.Unavailable(err, "Two-factor authentication is unavailable: its secret cannot be read with this key")
	}
	return plain, nil
}

// ConfirmTOTP activates u's pending secret with a code from the app and
// returns the recovery codes, shown this once (only their hashes are kept).
func (s *Service) ConfirmTOTP(ctx context.Context, u domain.User, code, addr string) ([]string, error) {
	now := s.clock.Now()
	if err := s.throttled(u.Email, addr, now); err != nil {
		return nil, err
	}
	t, err := s.store.TOTPByUser(ctx, u.ID)
	if domain.ErrorCode(err) == domain.ENotFound || (err == nil && t.ConfirmedAt != nil) {
		return nil, domain.Errorf(domain.EConflict, "No two-factor set-up is waiting for confirmation; start one first")
	} else if err != nil {
		return nil, err
	}
	codes, err := s.confirm(ctx, u, t, code, addr, now)
	return codes, signedInCodeError(err)
}

func (s *Service) confirm(ctx context.Context, u domain.User, t domain.TOTP, code, addr string, now time.Time) ([]string, error) {
	secret, err := s.openSecret(u.ID, t.Secret)
	if err != nil {
		return nil, err
	}
	settle, err := s.reserveCode(ctx, u, addr, now)
	if err != nil {
		return nil, err
	}
	step, ok := matchStep(secret, normalCode(code), now)
	settle(!ok)
	if !ok {
		return nil, codeError(domain.EUnauthorized, "That code is not right; enter the current 6-digit code from your authenticator app")
	}
	codes, hashes, err := newRecoveryCodes(u.ID)
	if err != nil {
		return nil, err
	}
	if err := s.store.ConfirmTOTP(ctx, u.ID, now, step, hashes); err != nil {
		return nil, err
	}
	return codes, nil
}

// DisableTOTP turns u's two-factor authentication off; it takes the
// password and a current code or an unused recovery code.
func (s *Service) DisableTOTP(ctx context.Context, u domain.User, password, code, addr string) error {
	now := s.clock.Now()
	if err := s.throttled(u.Email, addr, now); err != nil {
		return err
	}
	_, hash, err := s.store.UserByEmail(ctx, u.Email)
	if err != nil {
		return err
	}
	if !CheckPassword(hash, password) {
		s.failed(u.Email, addr, now)
		return domain.FieldErrors(map[string]string{"password": "Password is not right"}, "password")
	}
	t, err := s.store.TOTPByUser(ctx, u.ID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return domain.Errorf(domain.EConflict, "Two-factor authentication is not on")
	} else if err != nil {
		return err
	}
	if t.ConfirmedAt != nil {
		if err := s.checkCode(ctx, u, t, code, addr, now); err != nil {
			return signedInCodeError(err)
		}
	}
	return s.store.DeleteTOTP(ctx, u.ID)
}

// secondFactor is the part of a sign-in after the password: nothing when u
// has no TOTP and needs none; a valid code or recovery code when it has one;
// and, for an operator who must have one but has not, enrolment on the spot:
// without a code the answer carries a (pending) secret, with a code for it
// TOTP is switched on and the recovery codes are returned.
func (s *Service) secondFactor(ctx context.Context, u domain.User, code, addr string, now time.Time) ([]string, error) {
	t, err := s.store.TOTPByUser(ctx, u.ID)
	if err != nil && domain.ErrorCode(err) != domain.ENotFound {
		return nil, err
	}
	if err == nil && t.ConfirmedAt != nil {
		return nil, s.checkCode(ctx, u, t, code, addr, now)
	}
	if !s.totpRequired(u) {
		return nil, nil
	}
	if normalCode(code) == "" || err != nil {
		setup, err := s.SetupTOTP(ctx, u)
		if err != nil {
			return nil, err
		}
		return nil, &domain.Error{Code: domain.EForbidden,
			Message: "Operators must use two-factor authentication: add this key to your authenticator app, then sign in with its code",
			Fields:  map[string]string{"code": "Enter the 6-digit code to turn on two-factor authentication", "totp_secret": setup.Secret, "totp_uri": setup.URI}}
	}
	return s.confirm(ctx, u, t, code, addr, now)
}

// checkCode accepts a current TOTP code not used before, or an unused
// recovery code (which it uses up). Each code checked is first reserved
// (reserveCode), so concurrent guesses cannot pass a limit together; a
// wrong one counts as a failed login and against the account's codes.
func (s *Service) checkCode(ctx context.Context, u domain.User, t domain.TOTP, code, addr string, now time.Time) error {
	c := normalCode(code)
	if c == "" {
		return codeError(domain.EUnauthorized, "Enter the 6-digit code from your authenticator app, or a recovery code")
	}
	settle, err := s.reserveCode(ctx, u, addr, now)
	if err != nil {
		return err
	}
	ok, reused, err := s.matchCode(ctx, u, t, c, now)
	settle(err == nil && !ok)
	switch {
	case err != nil:
		return err
	case reused:
		return codeError(domain.EUnauthorized, "That code was already used; wait for the next one")
	case !ok:
		return codeError(domain.EUnauthorized, "That code is not right; enter the current code from your authenticator app, or an unused recovery code")
	}
	return nil
}

// matchCode reports whether c is a current, unused TOTP code or an unused
// recovery code of u (using it up); reused: a right TOTP code already used.
func (s *Service) matchCode(ctx context.Context, u domain.User, t domain.TOTP, c string, now time.Time) (ok, reused bool, err error) {
	if !isTOTPCode(c) {
		ok, err = s.store.UseRecoveryCode(ctx, u.ID, recoveryHash(u.ID, c), now)
		return ok, false, err
	}
	secret, err := s.openSecret(u.ID, t.Secret)
	if err != nil {
		return false, false, err
	}
	step, match := matchStep(secret, c, now)
	if !match {
		return false, false, nil
	}
	if ok, err = s.store.UseTOTPStep(ctx, u.ID, step); err != nil {
		return false, false, err
	}
	return ok, !ok, nil
}

// maxCodeFailuresPerAccount bounds the wrong second-factor codes of one
// account in failureWindow, from all addresses together. Only someone who
// has the password reaches the code step, so this limit cannot be used to
// lock a stranger's account.
const maxCodeFailuresPerAccount = 10

// reserveCode takes one code attempt of u from addr, atomically, in every
// limit a wrong code counts against: the address's, the login limit of
// the account from the address, and the account's own code limit. The
// answer's settle ends the attempt (failed: the code was wrong). A limit
// used up refuses the attempt before the code is looked at.
func (s *Service) reserveCode(ctx context.Context, u domain.User, addr string, now time.Time) (settle func(failed bool), err error) {
	type taken struct {
		l   *failureLimiter
		key string
	}
	// The order every reservation takes (address, account, codes), the
	// password step's too: one waiting for a budget never holds one another
	// waiter needs first.
	limits := []taken{{s.byAddress, limitAddr(addr)}, {s.byAccount, accountKey(u.Email, addr)}, {s.codeByAccount, u.ID}}
	for i, c := range limits {
		ok, wait, first, err := c.l.reserve(ctx, c.key, now)
		if err != nil || !ok {
			for _, d := range limits[:i] {
				d.l.settle(d.key, false)
			}
			msg := "Too many failed attempts"
			if c.l == s.codeByAccount {
				msg = "Too many wrong codes for this account"
			}
			return nil, refusal(err, msg, wait, first)
		}
	}
	return func(failed bool) {
		for _, c := range limits {
			c.l.settle(c.key, failed)
		}
	}, nil
}

func codeError(code, msg string) error {
	return &domain.Error{Code: code, Message: msg, Fields: map[string]string{"code": msg}}
}

// signedInCodeError turns a wrong code of a signed-in caller into a 400: a
// 401 would tell the client its session is gone.
func signedInCodeError(err error) error {
	var e *domain.Error
	if errors.As(err, &e) && e.Code == domain.EUnauthorized && e.Fields["code"] != "" {
		return codeError(domain.EInvalid, e.Message)
	}
	return err
}

// throttled refuses while the login failure limits of u from addr are used up.
func (s *Service) throttled(email, addr string, now time.Time) error {
	for _, c := range []struct {
		l   *failureLimiter
		key string
	}{{s.byAccount, accountKey(email, addr)}, {s.byAddress, limitAddr(addr)}} {
		if blocked, wait := c.l.blocked(c.key, now); blocked {
			mins := int((wait + time.Minute - 1) / time.Minute)
			return domain.Errorf(domain.ETooMany, "Too many failed attempts; try again in %d minute(s)", mins)
		}
	}
	return nil
}

func (s *Service) failed(email, addr string, now time.Time) {
	s.byAccount.fail(accountKey(email, addr), now)
	s.byAddress.fail(limitAddr(addr), now)
}

// matchStep returns the time step code is valid for at now, within the skew.
func matchStep(secret, code string, now time.Time) (int64, bool) {
	if !isTOTPCode(code) {
		return 0, false
	}
	for d := -totpSkew; d <= totpSkew; d++ {
		at := now.Add(time.Duration(d*totpPeriod) * time.Second)
		want, err := totp.GenerateCodeCustom(secret, at, totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return at.Unix() / totpPeriod, true
		}
	}
	return 0, false
}

// normalCode drops the spaces and dashes people type or paste, and case.
func normalCode(code string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "\t", "").Replace(code))
}

func isTOTPCode(c string) bool {
	if len(c) != 6 {
		return false
	}
	for _, r := range c {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// newRecoveryCodes makes recoveryCount codes of 80 random bits each, shown
// as xxxx-xxxx-xxxx-xxxx, and their hashes. Their entropy makes a fast hash
// safe; the user id in it keeps equal codes of two accounts apart.
func newRecoveryCodes(userID string) (codes, hashes []string, err error) {
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	for range recoveryCount {
		raw := make([]byte, 10)
		if _, err := rand.Read(raw); err != nil {
			return nil, nil, err
		}
		c := strings.ToLower(enc.EncodeToString(raw))
		codes = append(codes, c[0:4]+"-"+c[4:8]+"-"+c[8:12]+"-"+c[12:16])
		hashes = append(hashes, recoveryHash(userID, c))
	}
	return codes, hashes, nil
}

func recoveryHash(userID, normalised string) string {
	sum := sha256.Sum256([]byte(userID + "\x00" + normalised))
	return hex.EncodeToString(sum[:])
}

// RekeyTOTP re-seals every stored TOTP secret, opened with old and sealed
// again with next (each bound to its account), in one transaction; a secret
// that old cannot open stops it with nothing changed. Part of kestrel rekey.
func RekeyTOTP(ctx context.Context, store domain.TOTPStore, old, next Sealer) (int, error) {
	return store.ResealTOTP(ctx, func(userID, sealed string) (string, error) {
		plain, err := old.Open(TOTPField(userID), sealed)
		if err != nil {
			return "", fmt.Errorf("two-factor secret of user %s: %w", userID, err)
		}
		return next.Seal(TOTPField(userID), plain)
	})
}

// ResetTOTP turns off the two-factor authentication of account id on an
// operator's behalf (a lost phone and no recovery code left), and clears
// its count of wrong codes. The account signs in with its password alone
// until it sets a second factor up again (an operator, when the platform
// requires one, enrols at the next sign-in). Operators reset their own
// with DisableTOTP, which asks for the password and a code.
func (s *Service) ResetTOTP(ctx context.Context, actor domain.User, id string) (domain.User, error) {
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return domain.User{}, err
	}
	if u.ID == actor.ID {
		return domain.User{}, domain.Errorf(domain.EConflict, "Turn your own two-factor authentication off on the Account page, which asks for your password and a code")
	}
	if _, err := s.store.TOTPByUser(ctx, u.ID); domain.ErrorCode(err) == domain.ENotFound {
		return domain.User{}, domain.Errorf(domain.EConflict, "%s has no two-factor authentication to reset", u.Email)
	} else if err != nil {
		return domain.User{}, err
	}
	if err := s.store.DeleteTOTP(ctx, u.ID); err != nil {
		return domain.User{}, err
	}
	s.codeByAccount.reset(u.ID)
	return u, nil
}
