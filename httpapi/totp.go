package httpapi

import "net/http"

// totpRoutes are the signed-in account's own two-factor authentication.
func (s *Server) totpRoutes() {
	s.api("GET /api/auth/totp", signedIn, s.totpStatus)
	s.api("POST /api/auth/totp/setup", signedIn, s.totpSetup)
	s.api("POST /api/auth/totp/confirm", signedIn, s.totpConfirm)
	s.api("POST /api/auth/totp/disable", signedIn, s.totpDisable)
	s.api("POST /api/users/{id}/totp/reset", operatorOnly, s.totpReset)
}

// totpReset turns another user's second factor off (an operator's reset,
// audited): for a lost phone without recovery codes.
func (s *Server) totpReset(w http.ResponseWriter, r *http.Request) {
	u, err := s.d.Auth.ResetTOTP(r.Context(), userFrom(r.Context()), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "reset the two-factor authentication of "+u.Email)
	ok(w, map[string]bool{"totp_reset": true})
}

func (s *Server) totpStatus(w http.ResponseWriter, r *http.Request) {
	st, err := s.d.Auth.TOTPStatus(r.Context(), userFrom(r.Context()))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, st)
}

func (s *Server) totpSetup(w http.ResponseWriter, r *http.Request) {
	setup, err := s.d.Auth.SetupTOTP(r.Context(), userFrom(r.Context()))
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "started two-factor set-up")
	ok(w, setup)
}

func (s *Server) totpConfirm(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code string `json:"code"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	codes, err := s.d.Auth.ConfirmTOTP(r.Context(), userFrom(r.Context()), in.Code, clientAddr(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "turned two-factor authentication on")
	ok(w, map[string]any{"enabled": true, "recovery_codes": codes})
}

func (s *Server) totpDisable(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Password string `json:"password"`
		Code     string `json:"code"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.d.Auth.DisableTOTP(r.Context(), userFrom(r.Context()), in.Password, in.Code, clientAddr(r)); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "turned two-factor authentication off")
	ok(w, map[string]bool{"enabled": false})
}
