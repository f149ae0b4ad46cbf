package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"kestrel/auth"
	"kestrel/domain"
)

type loginResponse struct {
	Token string      `json:"token"`
	User  domain.User `json:"user"`
	// RecoveryCodes is set, once, when this sign-in turned two-factor authentication on.
	RecoveryCodes []string `json:"recovery_codes,omitempty"`
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var in auth.NewUser
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	u, err := s.d.Auth.RegisterFrom(r.Context(), in, clientAddr(r))
	if auth.IsRepeatRefusal(err) {
		skipAudit(r.Context())
	}
	if err != nil {
		noteAudit(r.Context(), "", "", "register "+auditText(in.Email, maxAuditActor))
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), u.ID, u.Email, "registered as "+string(u.Role))
	token, err := s.d.Auth.OpenSession(r.Context(), u.ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	created(w, loginResponse{Token: token, User: u})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		Code     string `json:"code"` // TOTP or recovery code, when the account has two-factor authentication
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	token, u, recovery, err := s.d.Auth.LoginWithCode(r.Context(), in.Email, in.Password, in.Code, clientAddr(r))
	if auth.IsRepeatRefusal(err) {
		skipAudit(r.Context())
	}
	if err != nil {
		noteAudit(r.Context(), "", "", "failed login for "+auditText(in.Email, maxAuditActor))
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), u.ID, u.Email, "")
	ok(w, loginResponse{Token: token, User: u, RecoveryCodes: recovery})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.d.Auth.Logout(r.Context(), bearerToken(r)); err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]bool{"logged_out": true})
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	ok(w, userFrom(r.Context()))
}

func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) {
	users, err := s.d.Store.ListUsers(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"users": users})
}

func (s *Server) createUser(w http.ResponseWriter, r *http.Request) {
	var in auth.NewUser
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	u, err := s.d.Auth.CreateUser(r.Context(), in)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "created user "+u.Email+" as "+string(u.Role))
	created(w, u)
}

func (s *Server) updateUser(w http.ResponseWriter, r *http.Request) {
	var in auth.UserChange
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	u, err := s.d.Auth.UpdateUser(r.Context(), userFrom(r.Context()), r.PathValue("id"), in)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", userChangeNote(u, in))
	ok(w, u)
}

// userChangeNote describes an operator's change for the audit log.
func userChangeNote(u domain.User, in auth.UserChange) string {
	var parts []string
	if in.Role != nil {
		parts = append(parts, "set role of "+u.Email+" to "+string(u.Role))
	}
	if in.Disabled != nil {
		parts = append(parts, map[bool]string{true: "disabled ", false: "enabled "}[u.Disabled]+u.Email)
		if u.Disabled {
			parts = append(parts, "their sessions ended and API tokens revoked")
		}
	}
	return strings.Join(parts, "; ")
}

func (s *Server) resetPassword(w http.ResponseWriter, r *http.Request) {
	var in struct {
		NewPassword string `json:"new_password"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	u, err := s.d.Auth.ResetPassword(r.Context(), userFrom(r.Context()), r.PathValue("id"), in.NewPassword)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "reset password of "+u.Email+"; their sessions ended and API tokens revoked")
	ok(w, map[string]bool{"password_reset": true})
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	var in auth.PasswordChange
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.d.Auth.ChangePassword(r.Context(), userFrom(r.Context()), bearerToken(r), clientAddr(r), in); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "changed own password; other sessions ended and API tokens revoked")
	ok(w, map[string]bool{"password_changed": true})
}

type registrationSwitch struct {
	Enabled bool `json:"enabled"`
}

func (s *Server) getRegistration(w http.ResponseWriter, r *http.Request) {
	open, err := s.d.Auth.RegistrationOpen(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, registrationSwitch{Enabled: open})
}

func (s *Server) putRegistration(w http.ResponseWriter, r *http.Request) {
	var in registrationSwitch
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.d.Auth.SetRegistrationOpen(r.Context(), in.Enabled); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "self-registration enabled="+strconv.FormatBool(in.Enabled))
	ok(w, in)
}

func (s *Server) listAudit(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	entries, err := s.d.Store.ListAudit(r.Context(), limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"entries": entries})
}

// intQuery reads an integer query parameter within [lo, hi], or def when absent.
func intQuery(r *http.Request, name string, def, lo, hi int) (int, error) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return def, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < lo || v > hi {
		return 0, &domain.Error{Code: domain.EInvalid, Message: name + " must be an integer between " + strconv.Itoa(lo) + " and " + strconv.Itoa(hi),
			Fields: map[string]string{name: "Must be an integer between " + strconv.Itoa(lo) + " and " + strconv.Itoa(hi)}}
	}
	return v, nil
}

func logError(ctx context.Context, msg string, err error) {
	slog.ErrorContext(ctx, msg, "err", err, "request_id", requestID(ctx))
}
