package httpapi

import "kestrel/domain"

// tokenUse is what an API token (not a session) may do on a route. Each
// route states its own where it is registered (access.withToken); the zero
// value refuses every token, so a new route is closed to tokens until its
// registration says otherwise (fail closed).
type tokenUse int

const (
	tokenNever tokenUse = iota // sessions only: accounts, tokens, users, settings
	tokenRead                  // any scope
	tokenWork                  // paper and trade scopes (backtests: no venue, no money)
	tokenTrade                 // trade scope; paper scope only while the venue is the sandbox
)

// String names the use in the route table.
func (u tokenUse) String() string {
	switch u {
	case tokenRead:
		return "read"
	case tokenWork:
		return "work"
	case tokenTrade:
		return "trade"
	}
	return ""
}

// tokenRefusal says why token t may not call a route of use, or nil.
func (s *Server) tokenRefusal(t domain.APIToken, use tokenUse) error {
	switch use {
	case tokenRead:
		return nil
	case tokenWork, tokenTrade:
		if t.Scope == domain.ScopeRead {
			return domain.Errorf(domain.EForbidden, "API token '%s' has the read scope: it may only read, and this call changes state", t.Name)
		}
		if use == tokenTrade && t.Scope == domain.ScopePaper && !s.paperVenue() {
			return domain.Errorf(domain.EForbidden, "API token '%s' has the paper scope: it trades only on the sandbox, and the venue is %s", t.Name, s.venueName())
		}
		return nil
	}
	return domain.Errorf(domain.EForbidden, "API tokens cannot call this endpoint; accounts, tokens, users, sessions and settings need a signed-in session")
}

// paperVenue reports whether orders go to the sandbox now: the settings
// select it and the running exchange is it (a Coinbase that failed to start
// leaves the sandbox running under coinbase settings: refused, to be safe).
func (s *Server) paperVenue() bool {
	if s.d.Trading == nil || s.d.Trading.ExchangeName() != "sandbox" {
		return false
	}
	return s.d.Settings == nil || s.d.Settings.Platform().API.Exchange.Provider == "sandbox"
}

func (s *Server) venueName() string {
	if s.d.Settings != nil {
		if p := s.d.Settings.Platform().API.Exchange.Provider; p != "" && p != "sandbox" {
			return p
		}
	}
	if s.d.Trading != nil {
		return s.d.Trading.ExchangeName()
	}
	return "unknown"
}

// tokenActor names the user and token in the audit log.
func tokenActor(u domain.User, t domain.APIToken) string {
	return u.Email + " via token '" + t.Name + "'"
}
