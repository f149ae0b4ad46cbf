package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kestrel/alert"
	"kestrel/domain"
)

func (s *Server) systemRoutes() {
	s.api("GET /api/system/status", signedIn.withToken(tokenRead), s.systemStatus)
	s.api("GET /api/system/alerts", signedIn.withToken(tokenRead), s.listAlerts)
	s.api("POST /api/system/alerts/{id}/resolve", signedIn, s.resolveAlert)
	s.api("POST /api/system/alerts/{id}/dismiss", signedIn, s.dismissAlert)
	s.api("GET /api/system/metrics", signedIn.withToken(tokenRead), s.systemMetrics)
	s.api("GET /api/system/config", operatorOnly, s.systemConfig)
	if s.d.Logs != nil {
		s.api("GET /api/system/logs", operatorOnly, s.systemLogs)
	}
	if s.d.Restart != nil {
		s.api("POST /api/system/restart", operatorOnly, s.systemRestart)
	}
}

// databaseEntry is the database's status entry: its grade and, while its
// writes fail, what the refused callers were told and when.
func databaseEntry(status string, f *domain.WriteFault) map[string]any {
	e := map[string]any{"status": status, "last_error": nil, "last_error_at": nil}
	if f != nil {
		e["last_error"], e["last_error_at"] = f.Message, f.At
	}
	return e
}

func (s *Server) systemStatus(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	now := s.d.Clock.Now()
	out := map[string]any{"timestamp": now}
	overall := "healthy"
	degrade := func(to string) {
		if to == "unhealthy" || overall == "healthy" {
			overall = to
		}
	}

	db, fault := s.databaseHealth(ctx, "status")
	if db != "healthy" {
		degrade(db)
	}
	out["database"] = databaseEntry(db, fault)

	halted := false
	if s.d.Trading != nil {
		h := s.d.Trading.Halt()
		halted = h.Active
		out["risk_management"] = map[string]any{"emergency_stop": h.Active, "halted_by": h.By, "halted_at": nullTime(h.At), "reason": h.Reason}
	}
	if key, entry, st := s.exchangeStatus(now); entry != nil {
		out["exchange_api_key"], out[key] = key, entry
		if st != "healthy" {
			degrade(st)
		}
	}
	engine := map[string]any{"trading_halted": halted, "uptime_seconds": int64(now.Sub(s.d.Started).Seconds())}
	stale := false
	if s.d.EngineBeat != nil {
		beat := s.d.EngineBeat()
		stale = sinceOr(beat, s.d.Started, now) > beatStaleAfter
		engine["last_heartbeat"], engine["heartbeat_age_seconds"] = nullTime(beat), ageSeconds(beat, now)
		if stale {
			degrade("unhealthy") // orders are accepted but nothing matches
		}
	}
	engine["status"] = engineStatus(halted, stale)
	out["trading_engine"] = engine

	if s.d.Hub != nil {
		st := s.d.Hub.Stats()
		ws := "running"
		if !st.Running {
			ws = "stopped" // clients stay connected but receive nothing
			degrade("degraded")
		}
		out["websocket"] = map[string]any{"status": ws, "clients": st.Clients, "running": st.Running}
	}
	if s.d.MarketAge != nil {
		age := s.d.MarketAge()
		md := "healthy"
		if age < 0 || s.d.MarketWatch.Late(age) {
			md = "degraded"
			degrade("degraded")
		}
		secs := -1.0
		if age >= 0 {
			secs = age.Seconds()
		}
		out["market_data"] = map[string]any{"status": md, "last_tick_age_seconds": secs, "source": s.d.marketSource(), "replay_of": s.d.replayOf()}
		if s.d.Venue != nil {
			out["market_data"].(map[string]any)["venue"] = s.d.Venue()
		}
	}
	if s.d.Cluster != nil {
		out["cluster"] = s.d.Cluster()
	}
	out["overall_status"] = overall
	ok(w, out)
}

// exchangeStatus is the exchange's entry under "<name>_api", from the
// adapter's own health when it has one; nil without an exchange.
func (s *Server) exchangeStatus(now time.Time) (key string, entry map[string]any, status string) {
	if s.d.Trading == nil && s.d.ExchangeHealth == nil {
		return "", nil, ""
	}
	name, sandbox := "exchange", false
	if s.d.Trading != nil {
		name, sandbox = s.d.Trading.ExchangeName(), s.d.Trading.IsSandbox()
	}
	if s.d.ExchangeHealth != nil {
		entry, status = exchangeEntry(s.d.ExchangeHealth(), s.d.MarketWatch, s.d.Started, now)
	} else {
		entry, status = map[string]any{"status": "unknown"}, "healthy" // no health source: claim nothing, blame nothing
	}
	entry["name"], entry["sandbox"] = name, sandbox
	return strings.ToLower(name) + "_api", entry, status
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func (s *Server) listAlerts(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	f := domain.AlertFilter{Limit: limit, Severity: strings.ToLower(r.URL.Query().Get("severity")), Viewer: userFrom(r.Context()).ID}
	switch f.Severity {
	case "", domain.SeverityCritical, domain.SeverityHigh, domain.SeverityMedium, domain.SeverityLow:
	default:
		fail(w, r, fieldErr("severity", "severity must be critical, high, medium or low"))
		return
	}
	if raw := r.URL.Query().Get("resolved"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			fail(w, r, fieldErr("resolved", "resolved must be true or false"))
			return
		}
		f.Resolved = &b
	}
	alerts, err := s.d.Alerts.List(r.Context(), f)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"alerts": alerts, "count": len(alerts)})
}

func (s *Server) resolveAlert(w http.ResponseWriter, r *http.Request) {
	id, err := alertID(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	u := userFrom(r.Context())
	a, did, err := s.d.Alerts.Resolve(r.Context(), id, alert.Resolver{Name: u.Email, Operator: u.Role == domain.RoleOperator})
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", strings.Join(append([]string{"resolved alert " + a.Title}, did...), "; "))
	ok(w, a)
}

// dismissAlert hides an alert for the signed-in user only (their bell and
// drawer), until it happens again; it stays open for everyone else.
func (s *Server) dismissAlert(w http.ResponseWriter, r *http.Request) {
	id, err := alertID(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	a, err := s.d.Alerts.Dismiss(r.Context(), id, userFrom(r.Context()).ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "dismissed alert "+a.Title+" (for this user)")
	ok(w, a)
}

// alertID is the {id} of an alert's path; a malformed one names no alert.
func alertID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Errorf(domain.ENotFound, "Alert not found")
	}
	return id, nil
}

// systemMetrics is the spec's System metrics: trading counters from real orders.
func (s *Server) systemMetrics(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"timestamp": s.d.Clock.Now()}
	if s.d.Trading != nil {
		p, err := s.d.Trading.Performance(r.Context())
		if err != nil {
			fail(w, r, err)
			return
		}
		out["trading"] = map[string]any{"total_trades": p.TotalTrades, "successful_trades": p.SuccessfulTrades, "failed_trades": p.FailedTrades,
			"daily_pnl": p.DailyPnL, "active_positions": p.ActivePositions, "pending_orders": p.PendingOrders, "win_rate": p.WinRate}
	}
	if s.d.Hub != nil {
		out["websocket"] = s.d.Hub.Stats()
	}
	if s.d.MarketAge != nil {
		out["market_data"] = map[string]any{"last_tick_age_seconds": s.d.MarketAge().Seconds(), "source": s.d.marketSource()}
	}
	ok(w, out)
}

// systemConfig is the effective configuration; secrets are never included.
func (s *Server) systemConfig(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"version": s.d.Build.Version, "started_at": s.d.Started}
	for k, v := range s.d.Config {
		out[k] = v
	}
	if s.d.Settings != nil {
		st, err := s.d.Settings.Get(r.Context(), userFrom(r.Context()).ID)
		if err != nil {
			fail(w, r, err)
			return
		}
		out["settings"] = map[string]any{"api": st.API, "trading": st.Trading, "system": st.System} // secrets arrive masked
	}
	ok(w, out)
}

var logLevels = []string{"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}

// systemLogs lists recent log records at or above level (default INFO).
func (s *Server) systemLogs(w http.ResponseWriter, r *http.Request) {
	level := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("level")))
	if level == "" {
		level = "INFO"
	}
	if level == "WARN" {
		level = "WARNING"
	}
	valid := false
	for _, l := range logLevels {
		valid = valid || l == level
	}
	if !valid {
		fail(w, r, fieldErr("level", "Level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"))
		return
	}
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	logs, err := s.d.Logs(r.Context(), level, strings.TrimSpace(r.URL.Query().Get("component")), limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"logs": logs, "count": len(logs), "level": level})
}

// systemRestart restarts the trading engine and market feeds in-process.
func (s *Server) systemRestart(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	if err := s.d.Restart(r.Context(), u.Email); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "restarted the trading engine and market feeds")
	ok(w, map[string]any{"restarted": true, "components": []string{"market_data", "trading_engine", "websocket_feed"}})
}
