package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"kestrel/ai/spend"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"kestrel/alert"
	"kestrel/auth"
	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/cluster"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/sandbox"
	"kestrel/httpapi"
	"kestrel/httpapi/ws"
	"kestrel/jobs"
	"kestrel/logbook"
	"kestrel/marketdata"
	"kestrel/metrics"
	"kestrel/notify"
	"kestrel/ops/backup"
	"kestrel/ops/diskwatch"
	"kestrel/ops/healthcheck"
	"kestrel/ops/retention"
	"kestrel/promotion"
	"kestrel/promotion/stage"
	"kestrel/replay"
	"kestrel/settings"
	"kestrel/store/postgres"
	"kestrel/store/sqlite"
	"kestrel/strategy"
	"kestrel/trading"
	"kestrel/venue"
)

// App is a running Kestrel: call New, then Run, then Close.
type App struct {
	cfg      Config
	build    httpapi.BuildInfo
	Store    domain.Store
	Auth     *auth.Service
	Bus      *events.Bus
	Alerts   *alert.Service
	Settings *settings.Service
	Metrics  *metrics.Metrics
	// Disk watches the data directory's free space: new long work is
	// refused below system.quotas.minFreeDiskMB (ops/diskwatch).
	Disk *diskwatch.Watch
	// Market is the replayed history: the live market with the sandbox.
	Market *replay.Replay
	// History is the candle store read by real market dates: what
	// backtests, the historical candles and the analytics statistics read.
	History *marketdata.History
	// Backfills fetch Coinbase's public candles into the candle store (jobs).
	Backfills *marketdata.Backfiller
	// Live is the market the app trades on (the replay, or Coinbase's
	// feed) and Exchange the exchange (the sandbox or the Coinbase adapter):
	// switches the exchange settings turn (venue.go).
	Live       *venue.MarketSwitch
	Exchange   *venue.ExchangeSwitch
	venues     venue.Switch // the venue in use
	sandbox    *venue.Venue // the paper engine on the replay: built once, kept for switching back
	sandboxOpt sandbox.Options
	history    *venue.History // the portfolio history of the venue in use
	Trading    *trading.Service
	// Strategies runs the automated strategies through the gateway.
	Strategies *strategy.Engine
	// Promotions moves strategy versions to paper and live; stages runs
	// the paper stages.
	Promotions *promotion.Service
	stages     *stage.Runner
	// Spend prices AI decisions and keeps providers in their monthly budgets.
	Spend *spend.Book
	// Backtests runs strategies over history.
	Backtests *backtest.Service
	Hub       *ws.Hub
	LogBook   *logbook.Book
	Backups   *backup.Backups
	server    *http.Server
	listener  net.Listener
	tls       bool // the listener speaks TLS (--tls-cert)
	stop      context.CancelFunc
	done      chan struct{}

	// Jobs runs long work (backtests) outside requests.
	Jobs *jobs.Runner

	// Notify routes events to the notification outbox and delivers them.
	Notify *notify.Service

	runCtx    context.Context
	engMu     sync.Mutex
	engCancel context.CancelFunc
	engDone   chan struct{}

	cluster *node // nil: one process

	// API is the HTTP API (its route table drives the contract and authorization tests).
	API *httpapi.Server
}

// OpenStore opens the store the configuration selects.
func OpenStore(ctx context.Context, cfg Config) (domain.Store, error) {
	if cfg.IsPostgres() {
		return postgres.Open(ctx, cfg.DatabaseURL)
	}
	path := cfg.SQLitePath()
	if strings.HasPrefix(cfg.DatabaseURL, "sqlite:") {
		path = strings.TrimPrefix(cfg.DatabaseURL, "sqlite:")
	} else if err := ensureDataDir(cfg.DataDir); err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, path)
}

// New builds the application and binds its listener (so Addr is known before Run).
func New(ctx context.Context, cfg Config, build httpapi.BuildInfo, ui fs.FS) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	tlsCfg, err := tlsConfig(cfg)
	if err != nil {
		return nil, err
	}
	exposed := !loopbackOnly(cfg.Addr)
	candles.Prefetch()
	if cfg.Clustered() {
		// Instances starting together migrate and fund the ledger one at a time.
		release, err := cluster.StartupLock(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	store, err := OpenStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	clock := domain.SystemClock{}
	a := &App{cfg: cfg, build: build, Store: store, Auth: auth.NewService(store, clock, cfg.SessionTTL), Bus: events.NewBus(), done: make(chan struct{})}
	a.Auth.SetSessionMaxAge(cfg.SessionMaxAge)
	a.Auth.RequireFirstOperatorFromCLI(exposed)
	a.Metrics = metrics.New()
	if a.LogBook = cfg.LogBook; a.LogBook == nil {
		a.LogBook = logbook.New(2000)
	}
	a.Alerts = alert.New(store, a.Bus, clock)
	if err := a.openSettings(ctx, clock); err != nil {
		store.Close()
		return nil, err
	}
	if err := a.importMarketData(ctx); err != nil {
		store.Close()
		return nil, err
	}
	if err := a.openEngine(ctx, clock); err != nil {
		store.Close()
		return nil, err
	}
	a.openJobs(clock)
	if !cfg.Clustered() {
		if err := a.Promotions.Resume(ctx); err != nil {
			slog.Error("promotion", "err", err, "component", "promotion")
			a.Alerts.Raise(ctx, "promotion:resume", domain.SeverityHigh, "strategy", "Paper stages not resumed", err.Error())
		}
	}
	a.Hub.SetLimits(ws.Limits{PerUser: cfg.WSMaxPerUser, MessageBurst: ws.DefaultLimits.MessageBurst, MessagesPerSecond: ws.DefaultLimits.MessagesPerSecond})
	copier, _ := store.(backup.Copier) // nil on PostgreSQL: backups then raise an alert
	a.Backups = backup.New(copier, filepath.Join(cfg.DataDir, "backups"), a.Settings.Platform, a.Alerts, clock)
	a.Disk = &diskwatch.Watch{Dir: cfg.DataDir, Free: cfg.FreeDisk, Alerts: a.Alerts,
		MinFreeMB: func() int { return a.Settings.Platform().System.Quotas.MinFreeDiskMB }}
	a.registerMetrics()
	started := clock.Now()
	if cfg.Clustered() {
		if err := a.joinCluster(started); err != nil {
			store.Close()
			return nil, err
		}
	}
	proxies, _ := httpapi.ParseTrustedProxies(cfg.TrustedProxies) // checked by Validate
	api := httpapi.New(httpapi.Deps{TrustedProxies: proxies, Store: store, Auth: a.Auth, Clock: clock, Build: build, Started: started, UI: ui,
		Market: a.Live, MarketSource: func() string { return a.current().Source }, Venue: func() string { return a.current().Label }, ReplayOf: a.replayOf, History: a.History, Backfills: a.Backfills, OrderBook: a.orderBook, Hub: a.Hub, Trading: a.Trading, Strategies: a.Strategies, PaperFee: a.paperFee(), Promotions: a.Promotions, Spend: a.Spend, Backtests: a.Backtests, Jobs: a.Jobs, Disk: a.Disk.Check, Notify: a.Notify, Digest: digestAccount{a},
		Portfolio: a.history, MarketAge: a.Live.LastTickAge, MarketWatch: a.marketWatch(), ExchangeHealth: a.exchangeHealth, EngineBeat: a.engineBeat,
		Alerts: a.Alerts, Settings: a.Settings, SettingsEffects: settingsEffects, Metrics: a.Metrics, MetricsToken: cfg.MetricsToken, MetricsClosed: exposed && cfg.MetricsToken == "", Config: a.effectiveConfig(),
		Logs: func(ctx context.Context, level, component string, limit int) ([]domain.LogEntry, error) {
			return a.LogBook.Query(ctx, a.Store, level, component, limit)
		},
		Restart: a.RestartEngine, Tuning: a.tuning, ExchangeTest: a.testExchange, Cluster: a.clusterStatus()})
	a.API = api
	handler := api.Handler()
	if a.cluster != nil {
		handler = a.cluster.fwd.Middleware(handler)
		a.cluster.handler = handler
	}
	a.server = &http.Server{
		Handler: handler,
		// A slow client cannot hold a connection's request open: its headers
		// must arrive in 10 s and its whole request (body included, read
		// before it takes a request slot) in 30 s. No write timeout: the
		// realtime socket and long backtests answer for longer.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	a.listener, err = net.Listen("tcp", cfg.Addr)
	if err != nil {
		a.leaveCluster()
		store.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	if tlsCfg != nil {
		a.server.TLSConfig = tlsCfg
		a.listener = tls.NewListener(a.listener, tlsCfg)
		a.tls = true
	}
	warnIfExposed(cfg, exposed, a.tls)
	// Parsing the shipped candles and migrating leave tens of megabytes of
	// garbage the runtime would hand back to the system only over minutes;
	// hand it back now, once, so an idle server's memory is what it holds.
	debug.FreeOSMemory()
	return a, nil
}

// Addr is the bound listen address (useful with port 0).
func (a *App) Addr() string { return a.listener.Addr().String() }

// URL is the base URL of the server.
func (a *App) URL() string {
	if a.tls {
		return "https://" + a.Addr()
	}
	return "http://" + a.Addr()
}

// Run serves until ctx is cancelled or Close is called, then shuts down gracefully.
func (a *App) Run(ctx context.Context) error {
	defer close(a.done)
	ctx, a.stop = context.WithCancel(ctx)
	a.runCtx = ctx
	var bg sync.WaitGroup
	for _, loop := range a.opsLoops() {
		bg.Add(1)
		go func() { defer bg.Done(); loop(ctx) }()
	}
	// The log book outlives the other loops so their last records are stored.
	logCtx, stopLogs := context.WithCancel(context.Background())
	logsDone := make(chan struct{})
	go func() { defer close(logsDone); a.LogBook.Persist(logCtx, a.Store) }()
	defer func() { stopLogs(); <-logsDone }()
	a.startEngine()

	errc := make(chan error, 1)
	go func() { errc <- a.server.Serve(a.listener) }()
	slog.Info("kestrel serving", "url", a.URL(), "database", a.describeDB())
	var err error
	select {
	case err = <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		a.stop()
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if e := a.server.Shutdown(shutdownCtx); e != nil {
			err = fmt.Errorf("shutdown: %w", e)
		}
	}
	a.stopEngine()
	bg.Wait()
	slog.Info("kestrel stopped")
	return err
}

// startEngine runs the market, matching and realtime loops under their own context.
func (a *App) startEngine() {
	a.engMu.Lock()
	defer a.engMu.Unlock()
	ctx, cancel := context.WithCancel(a.runCtx)
	done := make(chan struct{})
	a.engCancel, a.engDone = cancel, done
	go func() { defer close(done); a.runEngine(ctx) }()
}

// stopEngine stops the engine loops and waits for them.
func (a *App) stopEngine() {
	a.engMu.Lock()
	cancel, done := a.engCancel, a.engDone
	a.engMu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// RestartEngine restarts the trading engine and market feeds in-process
// (POST /system/restart); accounts, orders and sessions are untouched.
func (a *App) RestartEngine(ctx context.Context, by string) error {
	if a.runCtx == nil || a.runCtx.Err() != nil {
		return domain.Errorf(domain.EUnavailable, "The server is not running")
	}
	a.stopEngine()
	a.startEngine()
	slog.Warn("trading engine and market feeds restarted", "by", by, "component", "engine")
	return nil
}

// Close stops a running server (if Run was called) and releases the store.
func (a *App) Close() error {
	if a.stop != nil {
		a.stop()
		<-a.done
	} else {
		a.listener.Close()
	}
	a.leaveCluster()
	if a.Strategies != nil && !a.Strategies.DrainShadows(5*time.Second) {
		slog.Warn("shadow model decisions still out at shutdown: not stored", "component", "strategy")
	}
	return a.Store.Close()
}

// opsLoops are the maintenance jobs that run for the server's lifetime.
func (a *App) opsLoops() []func(context.Context) {
	clock := domain.SystemClock{}
	loops := []func(context.Context){
		func(ctx context.Context) { a.Auth.PruneEvery(ctx, 10*time.Minute) },
		func(ctx context.Context) {
			healthcheck.Run(ctx, a.Store, a.Settings.Platform, a.Alerts, a.Metrics.DatabaseErrors)
		},
		func(ctx context.Context) { retention.Run(ctx, a.Store, a.Settings.Platform, clock) },
		func(ctx context.Context) { a.Disk.Run(ctx, diskwatch.Every) },
		a.Backups.Run,
	}
	if a.cluster == nil {
		loops = append(loops, a.Jobs.Run) // a cluster's leader runs them (lead)
		loops = append(loops, a.notifyLoops()...)
	}
	return loops
}

func (a *App) describeDB() string {
	if a.cfg.IsPostgres() {
		return "postgresql " + redactURL(a.cfg.DatabaseURL)
	}
	return "sqlite " + a.cfg.SQLitePath()
}

// registerMetrics exposes live state to Prometheus: levels as gauges,
// running counts as counters.
func (a *App) registerMetrics() {
	a.Metrics.Gauge("kestrel_websocket_clients", "Connected realtime clients.", func() float64 { return float64(a.Hub.Stats().Clients) })
	a.Metrics.Counter("kestrel_websocket_slow_clients_dropped_total", "Realtime clients disconnected for falling behind.",
		func() float64 { return float64(a.Hub.Stats().SlowDisconnect) })
	a.Metrics.Counter("kestrel_websocket_frames_sent_total", "Frames sent to realtime clients.",
		func() float64 { return float64(a.Hub.Stats().FramesSent) })
	a.Metrics.Gauge("kestrel_market_tick_age_seconds", "Seconds since the last market tick (replay lag); -1 before the first.", func() float64 {
		if age := a.Live.LastTickAge(); age >= 0 {
			return age.Seconds()
		}
		return -1
	})
	a.Metrics.Counter("kestrel_market_ticks_dropped_total", "Market ticks dropped for slow subscribers.", func() float64 { return float64(a.Live.Dropped()) })
	a.Metrics.Counter("kestrel_events_dropped_total", "Events (ticks, trade updates, alerts, signals) the in-process bus dropped for subscribers with full buffers.",
		func() float64 { return float64(a.Bus.Dropped()) })
}

// effectiveConfig is the process configuration shown by /system/config (no secrets).
func (a *App) effectiveConfig() map[string]any {
	return map[string]any{"addr": a.cfg.Addr, "data_dir": a.cfg.DataDir, "database": a.describeDB(), "log_level": a.cfg.LogLevel,
		"session_timeout": a.cfg.SessionTTL.String(), "session_max_age": a.cfg.SessionMaxAge.String(), "secret_key": map[bool]string{true: "from configuration", false: "key file in the data directory"}[a.cfg.SecretKey != ""],
		"market": map[string]any{"source": a.current().Source, "seed": a.cfg.ReplaySeed, "speed": a.cfg.ReplaySpeed, "symbols": a.Live.Symbols(),
			"stale_after": a.cfg.MarketStaleAfter.String()},
		"exchange": map[string]any{"name": a.Exchange.Name(), "sandbox": a.Exchange.IsSandbox(), "coinbase_api_url": a.cfg.CoinbaseAPIURL,
			"coinbase_ws_url": a.cfg.CoinbaseWSURL, "coinbase_user_ws_url": a.cfg.CoinbaseUserWSURL},
		"sandbox": map[string]any{"starting_usd": a.cfg.StartingUSD, "taker_fee": a.cfg.TakerFee, "maker_fee": a.cfg.MakerFee, "spread": a.cfg.Spread},
		"metrics": map[bool]string{true: "bearer token required", false: "open"}[a.cfg.MetricsToken != ""], "cluster": a.clusterConfig(),
		"trusted_proxies": a.cfg.TrustedProxies}
}

// clusterConfig is the cluster part of /system/config (nil when alone).
func (a *App) clusterConfig() map[string]any {
	if a.cluster == nil {
		return nil
	}
	return map[string]any{"instance": a.cluster.id, "name": a.cfg.ClusterName, "nats": redactURL(a.cfg.NATSURL), "forward_timeout": a.cfg.ForwardTimeout.String()}
}

// tuning reads the HTTP settings from system.performance.
func (a *App) tuning() httpapi.Tuning {
	p := a.Settings.Platform().System.Performance
	return httpapi.Tuning{Caching: p.EnableCaching, CacheTimeout: time.Duration(p.CacheTimeout) * time.Millisecond, Compression: p.EnableCompression,
		MaxConcurrent: p.MaxConcurrentRequests, RequestTimeout: time.Duration(p.RequestTimeout) * time.Millisecond}
}
