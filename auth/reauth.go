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
