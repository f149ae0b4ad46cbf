package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/notify"
)

// tokenAuth admits a request made with an API token: the token's user, within
// the token's scope for a route of use; the audit entry names the token.
func (s *Server) tokenAuth(w http.ResponseWriter, r *http.Request, use tokenUse, bearer string, next http.Handler) {
	u, t, err := s.d.Auth.AuthenticateToken(r.Context(), bearer)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), u.ID, tokenActor(u, t), "")
	if err := s.tokenRefusal(t, use); err != nil {
		fail(w, r, err)
		return
	}
	next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyUser, u)))
}

// tokenRoutes manage API tokens: sessions only (a token cannot make or
// revoke tokens). Operators act for anyone with ?user_id=.
func (s *Server) tokenRoutes() {
	s.api("POST /api/tokens", signedIn, s.createToken)
	s.api("GET /api/tokens", signedIn, s.listTokens)
	s.api("DELETE /api/tokens/{id}", signedIn, s.revokeToken)
}

// tokenOwner is whose tokens the request is about: the caller, or for an
// operator the user of ?user_id= (which must exist).
func (s *Server) tokenOwner(r *http.Request) (domain.User, error) {
	me := userFrom(r.Context())
	id := r.URL.Query().Get("user_id")
	if id == "" || id == me.ID {
		return me, nil
	}
	if me.Role != domain.RoleOperator {
		return domain.User{}, domain.Errorf(domain.EForbidden, "Only operators manage other users' API tokens")
	}
	return s.d.Store.UserByID(r.Context(), id)
}

func (s *Server) createToken(w http.ResponseWriter, r *http.Request) {
	owner, err := s.tokenOwner(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	var in auth.NewToken
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	me := userFrom(r.Context())
	secret, t, err := s.d.Auth.CreateToken(r.Context(), me, owner, in, clientAddr(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "created API token '"+t.Name+"' ("+string(t.Scope)+") for "+owner.Email)
	// Its owner hears of it through their notification routing, committed
	// with this audit entry: a token made with a stolen session and
	// password does not go unnoticed.
	domain.AddAuditEvent(r.Context(), notify.CommittedTokenCreated(owner.ID, fmt.Sprintf("API token '%s' (%s scope, expires %s) was created for %s by %s from %s",
		t.Name, t.Scope, t.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"), owner.Email, me.Email, auditText(clientAddr(r), maxAuditRemote)), t.CreatedAt))
	created(w, tokenReply{APIToken: t, Token: secret})
}

// tokenReply is a new token with its secret, answered once.
type tokenReply struct {
	domain.APIToken
	Token string `json:"token"`
}

func (s *Server) listTokens(w http.ResponseWriter, r *http.Request) {
	owner, err := s.tokenOwner(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	list, err := s.d.Auth.Tokens(r.Context(), owner.ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"tokens": list})
}

// revokeToken deletes a token: the caller's own, or for an operator anyone's.
func (s *Server) revokeToken(w http.ResponseWriter, r *http.Request) {
	me := userFrom(r.Context())
	of := me.ID
	if me.Role == domain.RoleOperator {
		of = ""
	}
	t, err := s.d.Auth.RevokeToken(r.Context(), r.PathValue("id"), of)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "revoked API token '"+t.Name+"' of user "+t.UserID)
	ok(w, map[string]any{"revoked": true, "id": t.ID})
}
