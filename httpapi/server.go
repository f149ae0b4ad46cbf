package httpapi

import (
	"context"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai/spend"
	"kestrel/alert"
	"kestrel/auth"
	"kestrel/backtest"
	"kestrel/cluster"
	"kestrel/domain"
	"kestrel/httpapi/routemux"
	"kestrel/httpapi/ws"
	"kestrel/jobs"
	"kestrel/marketdata"
	"kestrel/metrics"
	"kestrel/notify"
	"kestrel/ops/marketwatch"
	"kestrel/promotion"
	"kestrel/settings"
	"kestrel/strategy"
	"kestrel/trading"
)

// BuildInfo describes the running binary.
type BuildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	BuildTime string `json:"build_time"`
	GoVersion string `json:"go_version"`
}

// Label is the build in a few words: the version, then the commit when it
// is another (a development build's version is its commit: said once).
func (b BuildInfo) Label() string {
	if b.Commit == "" || b.Commit == b.Version || strings.HasPrefix(b.Version, b.Commit) {
		return b.Version
	}
	return b.Version + " " + b.Commit
}

// Deps is what the API needs from the rest of the application.
type Deps struct {
	Store   Store
	Auth    *auth.Service
	Clock   domain.Clock
	Build   BuildInfo
	Started time.Time
	// UI is the built single-page app (index.html at its root); nil serves none.
	UI fs.FS
	// MaxBodyBytes caps request bodies; 0 means 1 MiB.
	MaxBodyBytes int64

	// Market data, realtime and trading; nil leaves their routes out.
	Market domain.MarketData
	// MarketSource names where prices come from (the label the UI shows).
	MarketSource func() string
	// ReplayOf is the real time of the history the market is replaying now;
	// nil when the market is live (not a replay).
	ReplayOf func() *time.Time
	// History is the candle store by real market dates (historical
	// candles, coverage, the statistics drawn from history); nil leaves
	// those routes out.
	History *marketdata.History
	// OrderBook reads a symbol's level2 book from the live market (nil:
	// no order book route).
	OrderBook func(symbol string) OrderBook
	// Backfills runs market-data backfills (with Jobs); nil leaves
	// /api/market-data/backfills out.
	Backfills *marketdata.Backfiller
	// Venue names where orders go and on which prices ("Paper · live
	// Coinbase prices").
	Venue      func() string
	Hub        *ws.Hub
	Trading    *trading.Service
	Strategies *strategy.Engine
	// PaperFee is the paper venue's taker fee rate: the shadow
	// leaderboard's paper trades pay it.
	PaperFee decimal.Decimal
	// Promotions moves strategy versions to paper and live (nil: the
	// promotion routes answer 503).
	Promotions *promotion.Service
	// Spend is the AI spend view and budgets; nil leaves /api/ai/spend out.
	Spend     *spend.Book
	Backtests *backtest.Service

	// Jobs runs backtests outside requests (POST /api/backtests).
	Jobs *jobs.Runner
	// Disk refuses new long work (backtests, sweeps, backfills) while the
	// data directory's disk is short of space (diskwatch.Watch.Check);
	// nil: never. Orders, cancels and the emergency stop never ask it.
	Disk func(ctx context.Context) error

	// Notify keeps notification channels, routing and the delivery log;
	// nil leaves the /api/notifications routes out.
	Notify *notify.Service
	// Digest is the account the daily digest reads (GET
	// /api/notifications/digest); nil leaves that route out.
	Digest notify.DigestAccount

	// Portfolio history store.
	Portfolio domain.PortfolioStore
	// Alerts lists and resolves system alerts.
	Alerts *alert.Service
	// MarketAge is the time since the last market tick (negative: none yet).
	MarketAge func() time.Duration
	// MarketWatch is the staleness threshold the alert and the automation
	// pause use (--market-stale-after); the status grades the feed by it
	// too. The zero value is marketwatch's default.
	MarketWatch marketwatch.Watcher
	// ExchangeHealth is the exchange adapter's account of its writes and
	// feed for /system/status; nil reports the exchange's status as unknown.
	ExchangeHealth func() domain.ExchangeHealth
	// EngineBeat is when the trading engine's loop last went round (zero:
	// not yet); nil leaves the heartbeat out of /system/status.
	EngineBeat func() time.Time
	// Settings stores the platform and per-user settings.
	Settings *settings.Service
	// ExchangeTest calls the exchange the settings describe with their
	// credentials and says what it answered (nil: only the sandbox exists).
	ExchangeTest func(ctx context.Context, e settings.Exchange) (string, error)
	// SettingsEffects says, per settings key, whether the running system applies it.
	SettingsEffects map[string]string
	// Config is the effective process configuration for /system/config (no secrets).
	Config map[string]any
	// Tuning returns the HTTP settings (caching, compression, concurrency, timeout); nil: none.
	Tuning func() Tuning
	// Logs reads recent log records (level and above, component, limit).
	Logs func(ctx context.Context, level, component string, limit int) ([]domain.LogEntry, error)
	// Restart restarts the trading engine and market feeds in-process.
	Restart func(ctx context.Context, by string) error
	// Cluster is this instance's view of its cluster (instance, leader,
	// live instances) for /system/status; nil when it runs alone.
	Cluster func() cluster.View
	// Metrics records request counts and latency; nil records nothing.
	Metrics *metrics.Metrics
	// MetricsToken, when set, is the bearer token GET /metrics requires.
	MetricsToken string
	// MetricsClosed, without a token, closes GET /metrics (the server
	// listens beyond loopback: its figures are for the operator's scraper).
	MetricsClosed bool
	// TrustedProxies may name the client in X-Forwarded-For (rate limits
	// and the audit log use that address); empty: the peer's address.
	TrustedProxies TrustedProxies
}

// Server routes HTTP requests.
type Server struct {
	d      Deps
	mux    *http.ServeMux
	routes []Route
	// mounts are the route table's handlers, mounted on mux together once
	// every route is known (routemux: some patterns overlap).
	mounts []routemux.Entry

	handlerOnce sync.Once
	handler     http.Handler // Handler's chain, built once: its slots are shared by REST and MCP tool calls
}

// access is who may call a route, declared once where the route is
// registered (s.api): the role a session needs, and what an API token may do
// there. The token check, the route table, the MCP tools and the OpenAPI
// x-access and x-token-use all follow from it.
type access struct {
	role  level
	token tokenUse
}

// The roles a route is registered with; a token use is added to them with
// withToken. A route without one refuses every API token.
var (
	public       = access{role: levelPublic}
	signedIn     = access{role: levelSignedIn}
	operatorOnly = access{role: levelOperator}
)

// withToken is a that also admits API tokens, for use (tokenscope.go),
// beside the sessions of its role.
func (a access) withToken(use tokenUse) access {
	a.token = use
	return a
}

// route is a's row of the route table.
func (a access) route() Route {
	return Route{Access: a.role.String(), Token: a.token.String()}
}

// level is the role a route needs. The zero value is no level at all: the
// route table test refuses a route registered with it.
type level int

const (
	levelPublic level = iota + 1
	levelSignedIn
	levelOperator
)

// String is the level as the route table and the OpenAPI description
// (x-access) name it.
func (l level) String() string {
	switch l {
	case levelPublic:
		return "public"
	case levelSignedIn:
		return "signed-in"
	case levelOperator:
		return "operator"
	}
	return ""
}

// Route is one registered API route and who may call it: the table the
// OpenAPI and authorization tests are generated from.
type Route struct {
	Method string
	Path   string
	// Access is public, signed-in or operator; empty when a route was
	// registered without one (a bug the tests catch).
	Access string
	// TicketInQuery: the route takes a single-use ticket in ?ticket= (the
	// WebSocket, which browsers cannot give headers), or a bearer token.
	TicketInQuery bool
	// Token is what API tokens may do here (tokenscope.go): read, work or
	// trade; empty when only a session may call it, the default.
	Token string
}

// Routes lists every /api route in registration order.
func (s *Server) Routes() []Route { return slices.Clone(s.routes) }

// New builds the router with every route.
func New(d Deps) *Server {
	if d.MaxBodyBytes == 0 {
		d.MaxBodyBytes = 1 << 20
	}
	s := &Server{d: d, mux: http.NewServeMux()}
	s.registerRoutes()
	return s
}

func (s *Server) registerRoutes() {
	s.api("GET /api/openapi.json", public, s.openAPI)
	s.api("POST /api/auth/register", public, s.register)
	s.api("POST /api/auth/login", public, s.login)
	s.api("POST /api/auth/logout", signedIn, s.logout)
	s.api("GET /api/auth/me", signedIn.withToken(tokenRead), s.me)
	s.api("POST /api/auth/password", signedIn, s.changePassword)
	s.sessionRoutes()
	s.totpRoutes()
	s.tokenRoutes()

	s.api("GET /api/users", operatorOnly, s.listUsers)
	s.api("POST /api/users", operatorOnly, s.createUser)
	s.api("PATCH /api/users/{id}", operatorOnly, s.updateUser)
	s.api("POST /api/users/{id}/password", operatorOnly, s.resetPassword)
	s.api("GET /api/users/registration", operatorOnly, s.getRegistration)
	s.api("PUT /api/users/registration", operatorOnly, s.putRegistration)
	s.api("GET /api/audit", operatorOnly, s.listAudit)

	s.api("GET /api/system/health", public, s.health)
	s.api("GET /api/system/version", public, s.version)

	if s.d.Market != nil {
		s.marketRoutes()
		s.wsRoute()
		if s.d.OrderBook != nil {
			s.api("GET /api/market-data/orderbook/{symbol}", signedIn.withToken(tokenRead), s.orderBook)
		}
	}
	if s.d.History != nil {
		s.historyRoutes()
		if s.d.Backfills != nil && s.d.Jobs != nil {
			s.backfillRoutes()
		}
	}
	if s.d.Trading != nil {
		s.tradingRoutes()
	}
	if s.d.Strategies != nil {
		s.strategyRoutes()
		s.analyticsRoutes()
	}
	s.analyticsMarketAIRoutes()
	if s.d.Spend != nil {
		s.api("GET /api/ai/spend", operatorOnly, s.aiSpend)
	}
	if s.d.Backtests != nil {
		s.backtestRoutes()
		if s.d.Jobs != nil {
			s.sweepRoutes()
		}
	}
	if s.d.Alerts != nil {
		s.systemRoutes()
	}
	if s.d.Settings != nil {
		s.settingsRoutes()
	}
	if s.d.Notify != nil {
		s.notificationRoutes()
	}
	s.mcpRoute() // last: its tools are the routes above
	routemux.Mount(s.mux, s.mounts, http.HandlerFunc(s.noSuchEndpoint))

	if s.d.Metrics != nil {
		s.mux.Handle("GET /metrics", requireMetricsToken(s.d.MetricsToken, s.d.MetricsClosed, s.d.Metrics.Handler()))
	}
	s.mux.HandleFunc("/api/", s.noSuchEndpoint)
	// Well-known URIs (RFC 8615) are for clients, not people: an OAuth
	// discovery (an MCP client's) gets a JSON 404, never the app's page.
	s.mux.HandleFunc("/.well-known/", s.noSuchEndpoint)
	s.mux.Handle("/", spaHandler(s.d.UI, s.d.Tuning))
}

func (s *Server) noSuchEndpoint(w http.ResponseWriter, r *http.Request) {
	fail(w, r, domain.Errorf(domain.ENotFound, "No such API endpoint: %s %s", r.Method, r.URL.Path))
}

// api registers an API route behind the audit log and the access check a
// declares: the role for sessions, the token use for API tokens.
func (s *Server) api(pattern string, a access, h http.HandlerFunc) {
	var handler http.Handler = h
	switch a.role {
	case levelPublic:
		if a.token != tokenNever {
			panic(pattern + ": a public route looks at no credential, so it has no token use")
		}
	case levelSignedIn:
		handler = s.requireAuthAs(a.token, handler)
	default: // levelOperator, and fail closed for a route without a level
		handler = s.requireAuthAs(a.token, requireRole(domain.RoleOperator, handler))
	}
	s.handle(pattern, a.route(), s.withAudit(handler))
}

// handle is the one place /api routes reach the mux, so the route table is
// complete (a test refuses direct s.mux registrations under /api). They are
// mounted together after the last one (registerRoutes), so patterns that
// ServeMux refuses side by side, such as POST /api/strategy/{name}/enable
// and POST /api/strategy/ai-analyze/{symbol}, each keep their own path.
func (s *Server) handle(pattern string, r Route, h http.Handler) {
	r.Method, r.Path, _ = strings.Cut(pattern, " ")
	s.routes = append(s.routes, r)
	s.mounts = append(s.mounts, routemux.Entry{Pattern: pattern, Handler: h})
}

// Handler is the whole HTTP stack: middleware around the router. It is
// built once, so every caller (the listener, MCP tool calls) shares its
// concurrency slots.
func (s *Server) Handler() http.Handler {
	s.handlerOnce.Do(func() { s.handler = s.chain() })
	return s.handler
}

func (s *Server) chain() http.Handler {
	var h http.Handler = s.mux
	if s.d.Metrics != nil {
		h = withMetrics(s.d.Metrics, h)
	}
	if s.d.Tuning != nil {
		h = withTuning(s.d.Tuning, h)
	}
	h = withBodyLimit(s.d.MaxBodyBytes, h)
	h = withClient(h)
	h = withRecovery(h)
	h = withAccessLog(h)
	h = withSecurityHeaders(h)
	h = withClientAddr(s.d.TrustedProxies, h)
	h = withRequestID(h)
	return h
}

// requireAuthAs admits requests with a valid session token, or an API token
// where use admits one (a token acts as its user within its scope:
// tokenscope.go), and puts the user in the context.
func (s *Server) requireAuthAs(use tokenUse, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bearer := bearerToken(r); auth.IsAPIToken(bearer) {
			s.tokenAuth(w, r, use, bearer, next)
			return
		}
		u, err := s.d.Auth.Authenticate(r.Context(), bearerToken(r))
		if err != nil {
			fail(w, r, err)
			return
		}
		noteAudit(r.Context(), u.ID, u.Email, "")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyUser, u)))
	})
}

func requireRole(role domain.Role, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if userFrom(r.Context()).Role != role {
			fail(w, r, domain.Errorf(domain.EForbidden, "This action requires the %s role", role))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withAudit records every state-changing call: who, what, outcome.
func (s *Server) withAudit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isStateChanging(r.Method) && !writingGETs[r.Pattern] {
			next.ServeHTTP(w, r)
			return
		}
		note := &auditNote{}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		events := &domain.AuditEvents{} // e.g. a person's risk refusal: told iff its entry is stored
		ctx := domain.WithAuditEvents(context.WithValue(r.Context(), keyAudit, note), events)
		next.ServeHTTP(rec, r.WithContext(ctx))
		if note.rider.Stored() && rec.status == note.riderStatus {
			return // stored with the order it placed (rideAudit)
		}
		if note.skip {
			return
		}
		e := boundAudit(domain.AuditEntry{
			At: s.d.Clock.Now(), UserID: note.userID, Actor: note.actor, Action: r.Method + " " + r.URL.Path,
			Status: rec.status, RequestID: requestID(r.Context()), Remote: clientAddr(r), Detail: note.detail,
		})
		e.Notify = events.Events()
		// The response is already written; use a context the client cannot cancel.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
		defer cancel()
		if err := s.d.Store.AppendAudit(ctx, e); err != nil {
			logError(ctx, "audit log write failed", err)
		} else if len(e.Notify) > 0 && s.d.Notify != nil {
			s.d.Notify.WakeRouting() // route them now rather than at the next poll
		}
	})
}

// rideAudit lets the exchange store this request's audit entry in the
// transaction that stores the order it places, modifies or cancels (target:
// the order's id, "" for a new one; domain.AuditRider), so the request waits
// for one commit, not two. The entry is the one withAudit would write for
// the success answer (status); when the order is not changed, or the answer
// is another, withAudit writes its own as usual.
func (s *Server) rideAudit(r *http.Request, target string, status int) *http.Request {
	note, ok := r.Context().Value(keyAudit).(*auditNote)
	if !ok {
		return r
	}
	note.rider, note.riderStatus = domain.NewAuditRider(target, func(o domain.Order) domain.AuditEntry {
		return boundAudit(domain.AuditEntry{At: s.d.Clock.Now(), UserID: note.userID, Actor: note.actor, Action: r.Method + " " + r.URL.Path,
			Status: status, RequestID: requestID(r.Context()), Remote: clientAddr(r), Detail: actedDetail(note.userID, o)})
	}), status
	return r.WithContext(domain.WithAuditRider(r.Context(), note.rider))
}

// replayOf is the real time being replayed, nil when the market is live.
func (d Deps) replayOf() *time.Time {
	if d.ReplayOf == nil {
		return nil
	}
	return d.ReplayOf()
}

func (d Deps) marketSource() string {
	if d.MarketSource == nil {
		return ""
	}
	return d.MarketSource()
}
