package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/httpapi/ws"
)

// wsRoute mounts the WebSocket endpoint; it authenticates by itself:
// browsers, which cannot set headers on a WebSocket, present a single-use
// ticket from POST /api/ws/ticket in the URL (the session token never
// travels in a URL), programs a bearer token in the Authorization header.
// Connections are closed when their session ends (logout, disabling,
// password change) and, through the hub's periodic check, when it expires.
func (s *Server) wsRoute() {
	authenticate := func(ctx context.Context, c ws.Credentials) (ws.Identity, error) {
		var u domain.User
		var sessionID string
		var err error
		if c.Ticket != "" {
			u, sessionID, err = s.d.Auth.RedeemTicket(ctx, c.Ticket)
		} else {
			u, err = s.d.Auth.Authenticate(ctx, c.Bearer)
			sessionID = auth.SessionID(c.Bearer)
		}
		check := func(ctx context.Context) error { return s.d.Auth.CheckSession(ctx, sessionID) }
		return ws.Identity{UserID: u.ID, SessionID: sessionID, Check: check}, err
	}
	valid := func(sym string) bool { return slices.Contains(s.d.Market.Symbols(), sym) }
	realtime := signedIn.route()
	realtime.TicketInQuery = true
	s.handle("GET /api/ws", realtime, s.d.Hub.Handler(authenticate, valid))
	// Not audited: asking for a ticket changes nothing but a 30-second row,
	// and the web app asks before every (re)connection.
	s.handle("POST /api/ws/ticket", signedIn.route(), s.requireAuthAs(signedIn.token, http.HandlerFunc(s.wsTicket)))
	s.d.Auth.OnSessionsEnded(func(e auth.Ended) {
		s.d.Hub.CloseSessions(func(who ws.Identity) bool { return e.Matches(who.UserID, who.SessionID) })
	})
}

// wsTicket answers a single-use ticket admitting one realtime connection of
// the caller's session for auth.TicketTTL.
func (s *Server) wsTicket(w http.ResponseWriter, r *http.Request) {
	ticket, exp, err := s.d.Auth.IssueTicket(r.Context(), bearerToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"ticket": ticket, "expires_at": exp})
}

func (s *Server) websocketStatus(w http.ResponseWriter, r *http.Request) {
	st := s.d.Hub.Stats()
	ok(w, map[string]any{
		"status":               "running",
		"endpoint":             "/api/ws",
		"connected_clients":    st.Clients,
		"frames_sent":          st.FramesSent,
		"slow_clients_dropped": st.SlowDisconnect,
		"feed":                 s.d.Hub.Feed(),
		"source":               s.d.marketSource(),
	})
}

type feedRequest struct {
	Symbols  []string `json:"symbols"`
	Channels []string `json:"channels"`
}

func (s *Server) feedSubscribe(w http.ResponseWriter, r *http.Request)   { s.changeFeed(w, r, true) }
func (s *Server) feedUnsubscribe(w http.ResponseWriter, r *http.Request) { s.changeFeed(w, r, false) }

// changeFeed turns server-side publishing of symbols' channels on or off
// (default channels: ticker and matches, as the spec says).
func (s *Server) changeFeed(w http.ResponseWriter, r *http.Request, on bool) {
	var in feedRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if len(in.Symbols) == 0 {
		fail(w, r, fieldErr("symbols", "At least one symbol is required"))
		return
	}
	if len(in.Channels) == 0 {
		in.Channels = []string{"ticker", "matches"}
	}
	for i, sym := range in.Symbols {
		in.Symbols[i] = strings.ToUpper(strings.TrimSpace(sym))
		if !slices.Contains(s.d.Market.Symbols(), in.Symbols[i]) {
			fail(w, r, fieldErr("symbols", "Unknown symbol: "+sym))
			return
		}
	}
	for _, c := range in.Channels {
		if !ws.ValidChannel(c) || c == ws.ChannelAlerts {
			fail(w, r, fieldErr("channels", "Unknown channel: "+c+" (use ticker or matches)"))
			return
		}
	}
	s.d.Hub.SetFeed(in.Symbols, in.Channels, on)
	noteAudit(r.Context(), "", "", strings.Join(in.Symbols, ",")+" "+strings.Join(in.Channels, ","))
	ok(w, map[string]any{"subscribed": on, "symbols": in.Symbols, "channels": in.Channels, "feed": s.d.Hub.Feed()})
}
