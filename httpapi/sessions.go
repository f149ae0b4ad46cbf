package httpapi

import (
	"fmt"
	"net/http"

	"kestrel/auth"
)

// sessionRoutes let users see where they are signed in and end those
// sessions (a lost laptop, a shared machine).
func (s *Server) sessionRoutes() {
	s.api("GET /api/auth/sessions", signedIn, s.listSessions)
	s.api("POST /api/auth/sessions/end-others", signedIn, s.endOtherSessions)
	s.api("DELETE /api/auth/sessions/{id}", signedIn, s.endSession)
	s.api("GET /api/auth/setup", public, s.setup)
}

// setup tells the sign-in screens whether an account exists yet and
// whether the first operator must be created from the command line.
func (s *Server) setup(w http.ResponseWriter, r *http.Request) {
	st, err := s.d.Auth.SetupState(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, st)
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	list, err := s.d.Auth.Sessions(r.Context(), userFrom(r.Context()), bearerToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"sessions": list})
}

// endOtherSessions signs the caller out everywhere but here: the session
// asking stays, so its user can go on to change the password.
func (s *Server) endOtherSessions(w http.ResponseWriter, r *http.Request) {
	n, err := s.d.Auth.EndOtherSessions(r.Context(), userFrom(r.Context()), bearerToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("signed out of %d other session(s) and revoked the API tokens", n))
	ok(w, map[string]int{"ended": n})
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	if err := s.d.Auth.EndSession(r.Context(), u, r.PathValue("id")); err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]bool{"ended": true})
}

// withClient tells auth who is signing in (address and user agent), kept
// with the session for its user's list of sessions.
func withClient(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := auth.Client{Addr: clientAddr(r), UserAgent: r.UserAgent()}
		next.ServeHTTP(w, r.WithContext(auth.WithClient(r.Context(), c)))
	})
}
