package auth

import (
	"context"

	"kestrel/domain"
)

// VerifyPassword checks u's password again before a sensitive action (the
// plaintext export of secrets). A wrong password is a field error and
// counts as a failed login of u from addr, so it cannot be guessed faster
// than a login.
func (s *Service) VerifyPassword(ctx context.Context, u domain.User, addr, password string) error {
	if password == "" {
		return domain.FieldErrors(map[string]string{"password": "Password is required"}, "password")
	}
	key := accountKey(u.Email, addr)
	if ok, wait, first, err := s.byAccount.reserve(ctx, key, s.clock.Now()); err != nil || !ok {
		return refusal(err, "Too many wrong passwords", wait, first)
	}
	_, hash, err := s.store.UserByEmail(ctx, u.Email)
	if err != nil {
		s.byAccount.settle(key, false)
		return err
	}
	if !CheckPassword(hash, password) {
		s.byAccount.settle(key, true)
		return domain.FieldErrors(map[string]string{"password": "Password is incorrect"}, "password")
	}
	s.byAccount.settle(key, false)
	return nil
}

// reauthenticate checks u's password and, when u has two-factor
// authentication on, a current code or an unused recovery code, before an
// action that grants lasting access (an API token). Both count against
// the usual limits; a wrong one is a field error (a 400, never a 401,
// which would end the caller's session in the client).
func (s *Service) reauthenticate(ctx context.Context, u domain.User, addr, password, code string) error {
	if err := s.VerifyPassword(ctx, u, addr, password); err != nil {
		return err
	}
	t, err := s.store.TOTPByUser(ctx, u.ID)
	if domain.ErrorCode(err) == domain.ENotFound || (err == nil && t.ConfirmedAt == nil) {
		return nil
	} else if err != nil {
		return err
	}
	if len(code) > maxCodeBytes {
		return codeError(domain.EInvalid, "Code must be at most 64 characters")
	}
	return signedInCodeError(s.checkCode(ctx, u, t, code, addr, s.clock.Now()))
}
