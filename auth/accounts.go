package auth

import (
	"context"
	"fmt"

	"kestrel/domain"
)

// Ended says which sessions were just ended, so that whoever holds
// connections opened with them (the realtime hub) can close them. Either
// SessionID names one session, or UserID names all of a user's sessions
// except KeepSessionID (empty: none kept).
type Ended struct {
	SessionID     string
	UserID        string
	KeepSessionID string
}

// Matches reports whether the session sessionID of userID is among the ended ones.
func (e Ended) Matches(userID, sessionID string) bool {
	if e.SessionID != "" {
		return sessionID == e.SessionID
	}
	return userID == e.UserID && sessionID != e.KeepSessionID
}

// OnSessionsEnded registers f to be told of every logout, disabling and
// password change. f must not block.
func (s *Service) OnSessionsEnded(f func(Ended)) { s.onEnd.Store(&f) }

func (s *Service) ended(e Ended) {
	if f := s.onEnd.Load(); f != nil {
		(*f)(e)
	}
}

// announce tells the listeners here and, through OnInvalidated, the
// other instances of a cluster that sessions ended.
func (s *Service) announce(e Ended) {
	s.ended(e)
	s.invalidated(&e)
}

// OnInvalidated registers f to be told, after the store has changed, of
// everything a cached session must not outlive here or elsewhere: ended
// sessions (e), or a change of a user's role or status (e nil). A cluster
// passes it to its other instances, which apply it with Forget. f must not
// block.
func (s *Service) OnInvalidated(f func(e *Ended)) { s.onInval.Store(&f) }

func (s *Service) invalidated(e *Ended) {
	if f := s.onInval.Load(); f != nil {
		(*f)(e)
	}
}

// Forget applies an invalidation made by another instance: the whole
// session cache empties (each session's next request reads the store,
// which already holds the change), and ended sessions reach the
// OnSessionsEnded listener, which closes their connections here too.
func (s *Service) Forget(e *Ended) {
	s.sessions.clear()
	if e != nil {
		s.ended(*e)
	}
}

// endUserSessions deletes userID's sessions except keep and tells the listener.
func (s *Service) endUserSessions(ctx context.Context, userID, keep string) error {
	defer s.sessions.dropUser(userID) // after the delete: a lookup racing it cannot cache what it ended
	if _, err := s.store.DeleteUserSessions(ctx, userID, keep); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	s.announce(Ended{UserID: userID, KeepSessionID: keep})
	return nil
}

// PasswordChange is what a user sends to change their own password.
type PasswordChange struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// ChangePassword sets u's password after checking the current one, ends
// u's other sessions and revokes u's API tokens; the session of token
// stays valid. A wrong current
// password is a field error and counts as a failed login from addr.
func (s *Service) ChangePassword(ctx context.Context, u domain.User, token, addr string, in PasswordChange) error {
	f := map[string]string{}
	if in.CurrentPassword == "" {
		f["current_password"] = "Current password is required"
	}
	if m := passwordProblem(in.NewPassword); m != "" {
		f["new_password"] = m
	} else if in.NewPassword == in.CurrentPassword {
		f["new_password"] = "New password must differ from the current password"
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, "current_password", "new_password")
	}
	now, key := s.clock.Now(), accountKey(u.Email, addr)
	if ok, wait, first, err := s.byAccount.reserve(ctx, key, now); err != nil || !ok {
		return refusal(err, "Too many wrong passwords", wait, first)
	}
	_, hash, err := s.store.UserByEmail(ctx, u.Email)
	if err != nil {
		s.byAccount.settle(key, false)
		return err
	}
	if !CheckPassword(hash, in.CurrentPassword) {
		s.byAccount.settle(key, true)
		return domain.FieldErrors(map[string]string{"current_password": "Current password is incorrect"}, "current_password")
	}
	s.byAccount.settle(key, false)
	if err := s.setPassword(ctx, u.ID, in.NewPassword); err != nil {
		return err
	}
	if err := s.revokeUserTokens(ctx, u.ID); err != nil {
		return err
	}
	return s.endUserSessions(ctx, u.ID, hashToken(token))
}

// ResetPassword sets another user's password on an operator's behalf, ends
// all of that user's sessions and revokes their API tokens. Operators change their own password with
// ChangePassword, which asks for the current one.
func (s *Service) ResetPassword(ctx context.Context, actor domain.User, id, newPassword string) (domain.User, error) {
	if m := passwordProblem(newPassword); m != "" {
		return domain.User{}, domain.FieldErrors(map[string]string{"new_password": m}, "new_password")
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return domain.User{}, err
	}
	if u.ID == actor.ID {
		return domain.User{}, domain.Errorf(domain.EConflict, "Change your own password with Change password, which asks for the current one")
	}
	if err := s.setPassword(ctx, u.ID, newPassword); err != nil {
		return domain.User{}, err
	}
	if err := s.revokeUserTokens(ctx, u.ID); err != nil {
		return domain.User{}, err
	}
	return u, s.endUserSessions(ctx, u.ID, "")
}

func (s *Service) setPassword(ctx context.Context, id, pw string) error {
	hash, err := HashPassword(pw)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	return s.store.SetPasswordHash(ctx, id, hash)
}

// UserChange is what an operator may change on an account; nil leaves a field as it is.
type UserChange struct {
	Role     *domain.Role `json:"role"`
	Disabled *bool        `json:"disabled"`
}

// UpdateUser applies an operator's change to account id. Every rule is checked
// before anything is written: the role must be valid, nobody disables
// themself, and at least one enabled operator remains (conflict errors).
// Disabling ends the user's sessions and revokes their API tokens at once
// (enabling the account again does not bring the tokens back).
func (s *Service) UpdateUser(ctx context.Context, actor domain.User, id string, ch UserChange) (domain.User, error) {
	if ch.Role == nil && ch.Disabled == nil {
		return domain.User{}, domain.Errorf(domain.EInvalid, "Nothing to change: send role and/or disabled")
	}
	if ch.Role != nil && !ch.Role.Valid() {
		return domain.User{}, domain.FieldErrors(map[string]string{"role": "Role must be trader or operator"}, "role")
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return domain.User{}, err
	}
	next := u
	if ch.Role != nil {
		next.Role = *ch.Role
	}
	if ch.Disabled != nil {
		next.Disabled = *ch.Disabled
	}
	if err := s.checkOperatorsRemain(ctx, actor, u, next); err != nil {
		return domain.User{}, err
	}
	return next, s.apply(ctx, u, next)
}

func (s *Service) apply(ctx context.Context, u, next domain.User) error {
	defer s.invalidated(nil)        // after the writes, like the drop below
	defer s.sessions.dropUser(u.ID) // after the writes: the sessions reread the changed user
	if next.Role != u.Role {
		if err := s.store.SetUserRole(ctx, u.ID, next.Role); err != nil {
			return err
		}
	}
	if next.Disabled != u.Disabled {
		if err := s.store.SetUserDisabled(ctx, u.ID, next.Disabled); err != nil {
			return err
		}
	}
	if next.Disabled {
		if err := s.revokeUserTokens(ctx, u.ID); err != nil {
			return err
		}
		return s.endUserSessions(ctx, u.ID, "")
	}
	return nil
}

// checkOperatorsRemain refuses a change that disables the actor or leaves no
// enabled operator.
func (s *Service) checkOperatorsRemain(ctx context.Context, actor, u, next domain.User) error {
	if next.Disabled && !u.Disabled && u.ID == actor.ID {
		return domain.Errorf(domain.EConflict, "You cannot disable your own account")
	}
	activeOp := func(x domain.User) bool { return x.Role == domain.RoleOperator && !x.Disabled }
	if !activeOp(u) || activeOp(next) {
		return nil
	}
	users, err := s.store.ListUsers(ctx)
	if err != nil {
		return err
	}
	ops := 0
	for _, x := range users {
		if activeOp(x) {
			ops++
		}
	}
	if ops > 1 {
		return nil
	}
	if next.Role != domain.RoleOperator {
		return domain.Errorf(domain.EConflict, "The last operator cannot be demoted")
	}
	return domain.Errorf(domain.EConflict, "The last enabled operator cannot be disabled")
}
