package httpapi

import (
	"strings"

	"kestrel/domain"
)

// tokenUse is what an API token (not a session) may do on a route. The zero
// value refuses every token: a route is open to tokens only when this file
// says so (fail closed).
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

// tokenReadable are the GET routes a token of any scope may call: market
// data, the account's trading state, strategies, backtests, analytics and
// the system's status (never users, settings, sessions, tokens or logs).
var tokenReadable = []string{
	"GET /api/market-data/", "GET /api/trading/", "GET /api/strategy/", "GET /api/backtests",
	"GET /api/sweeps", "GET /api/analytics/",
}

var tokenExact = map[string]tokenUse{
	"GET /api/auth/me":        tokenRead,
	"GET /api/system/status":  tokenRead,
	"GET /api/system/alerts":  tokenRead,
	"GET /api/system/metrics": tokenRead,

	"POST /api/backtests":             tokenWork,
	"POST /api/backtests/{id}/cancel": tokenWork,
	"DELETE /api/backtests/{id}":      tokenWork,
	"POST /api/sweeps":                tokenWork,
	"POST /api/sweeps/{id}/cancel":    tokenWork,
	// Test AI asks the model (it costs, and counts toward the AI budget)
	// and records a decision; it never trades.
	"POST /api/strategy/ai-analyze/{symbol}": tokenWork,

	"POST /api/trading/execute":              tokenTrade,
	"POST /api/trading/orders/limit":         tokenTrade,
	"POST /api/trading/orders/stop-loss":     tokenTrade,
	"POST /api/trading/orders/trailing-stop": tokenTrade,
	"PUT /api/trading/orders/{id}":           tokenTrade,
	"DELETE /api/trading/orders/{id}":        tokenTrade,
	"POST /api/trading/stop":                 tokenTrade,
	// A strategy trades on the venue once enabled: like an order.
	"POST /api/strategy/{name}/enable":  tokenTrade,
	"POST /api/strategy/{name}/disable": tokenTrade,
}

// tokenUseOf is what tokens may do on the route of pattern ("METHOD /path").
func tokenUseOf(pattern string) tokenUse {
	if u, ok := tokenExact[pattern]; ok {
		return u
	}
	for _, p := range tokenReadable {
		if strings.HasPrefix(pattern, p) {
			return tokenRead
		}
	}
	return tokenNever
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
