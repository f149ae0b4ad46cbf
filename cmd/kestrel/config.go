package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"time"

	"kestrel/app"
	"kestrel/httpapi"
	"kestrel/logbook"
	"kestrel/web"
)

// Set at build time with -ldflags "-X main.version=... -X main.commit=... -X main.buildTime=...".
var (
	version   = "dev"
	commit    = "unknown"
	buildTime = "unknown"
)

func buildInfo() httpapi.BuildInfo {
	return httpapi.BuildInfo{Version: version, Commit: commit, BuildTime: buildTime, GoVersion: runtime.Version()}
}

// bindConfig registers the configuration flags; each defaults to its
// KESTREL_* environment variable, then to the embedded default.
func bindConfig(fs *flag.FlagSet) *app.Config {
	d := app.Defaults()
	c := &app.Config{}
	fs.StringVar(&c.Addr, "addr", env("KESTREL_ADDR", d.Addr), "listen address [KESTREL_ADDR]")
	fs.StringVar(&c.DataDir, "data-dir", env("KESTREL_DATA_DIR", d.DataDir), "data directory for the SQLite database and keys [KESTREL_DATA_DIR]")
	fs.StringVar(&c.DatabaseURL, "database-url", env("KESTREL_DATABASE_URL", d.DatabaseURL),
		"database: empty for the embedded SQLite file in the data directory, or a postgres:// URL [KESTREL_DATABASE_URL]")
	fs.StringVar(&c.LogLevel, "log-level", env("KESTREL_LOG_LEVEL", d.LogLevel), "log level: DEBUG, INFO, WARNING, ERROR, CRITICAL [KESTREL_LOG_LEVEL]")
	fs.StringVar(&c.SecretKey, "secret-key", env("KESTREL_SECRET_KEY", ""), "base64 32-byte key that encrypts stored secrets; default: a key file created in the data directory [KESTREL_SECRET_KEY]")
	fs.DurationVar(&c.SessionTTL, "session-timeout", envDuration("KESTREL_SESSION_TIMEOUT", d.SessionTTL), "how long a sign-in lasts without use [KESTREL_SESSION_TIMEOUT]")
	fs.DurationVar(&c.SessionMaxAge, "session-max-age", envDuration("KESTREL_SESSION_MAX_AGE", d.SessionMaxAge), "how long a sign-in lasts at most, however much it is used [KESTREL_SESSION_MAX_AGE]")
	fs.Int64Var(&c.ReplaySeed, "replay-seed", envInt("KESTREL_REPLAY_SEED", d.ReplaySeed), "seed of the replayed market's price path [KESTREL_REPLAY_SEED]")
	fs.Float64Var(&c.ReplaySpeed, "replay-speed", envFloat("KESTREL_REPLAY_SPEED", d.ReplaySpeed), "replayed market seconds per wall second, for demos [KESTREL_REPLAY_SPEED]")
	fs.StringVar(&c.StartingUSD, "sandbox-starting-usd", env("KESTREL_SANDBOX_STARTING_USD", d.StartingUSD), "sandbox account funding on first start [KESTREL_SANDBOX_STARTING_USD]")
	fs.StringVar(&c.TakerFee, "sandbox-taker-fee", env("KESTREL_SANDBOX_TAKER_FEE", d.TakerFee), "sandbox taker fee rate [KESTREL_SANDBOX_TAKER_FEE]")
	fs.StringVar(&c.MakerFee, "sandbox-maker-fee", env("KESTREL_SANDBOX_MAKER_FEE", d.MakerFee), "sandbox maker fee rate [KESTREL_SANDBOX_MAKER_FEE]")
	fs.StringVar(&c.Spread, "sandbox-spread", env("KESTREL_SANDBOX_SPREAD", d.Spread), "extra fraction sandbox market orders pay beyond the bid/ask [KESTREL_SANDBOX_SPREAD]")
	fs.DurationVar(&c.MarketStaleAfter, "market-stale-after", envDuration("KESTREL_MARKET_STALE_AFTER", d.MarketStaleAfter),
		"how long the market feed may go without a price before the stale alert and the automation pause [KESTREL_MARKET_STALE_AFTER]")
	fs.StringVar(&c.CoinbaseAPIURL, "coinbase-api-url", env("KESTREL_COINBASE_API_URL", ""), "Coinbase REST base URL; default: Coinbase's production host, or its sandbox host when the exchange settings say sandbox [KESTREL_COINBASE_API_URL]")
	fs.StringVar(&c.CoinbaseWSURL, "coinbase-ws-url", env("KESTREL_COINBASE_WS_URL", ""), "Coinbase market-data WebSocket URL; default: Coinbase's [KESTREL_COINBASE_WS_URL]")
	fs.StringVar(&c.CoinbaseUserWSURL, "coinbase-user-ws-url", env("KESTREL_COINBASE_USER_WS_URL", ""), "Coinbase user-channel WebSocket URL; default: Coinbase's [KESTREL_COINBASE_USER_WS_URL]")
	fs.StringVar(&c.TelegramAPIURL, "telegram-api-url", env("KESTREL_TELEGRAM_API_URL", ""),
		"Telegram Bot API base URL for notifications (http:// only to loopback); default: Telegram's [KESTREL_TELEGRAM_API_URL]")
	fs.StringVar(&c.NATSURL, "nats-url", env("KESTREL_NATS_URL", ""),
		"NATS server (nats://host:4222): with a PostgreSQL database, this process is one instance of a cluster (docs/SCALING.md) [KESTREL_NATS_URL]")
	fs.StringVar(&c.InstanceID, "instance-id", env("KESTREL_INSTANCE_ID", ""), "this instance's name in a cluster; default: hostname-pid [KESTREL_INSTANCE_ID]")
	fs.StringVar(&c.ClusterName, "cluster-name", env("KESTREL_CLUSTER_NAME", d.ClusterName),
		"prefix of the cluster's NATS subjects; instances of one cluster share it [KESTREL_CLUSTER_NAME]")
	fs.DurationVar(&c.ForwardTimeout, "forward-timeout", envDuration("KESTREL_FORWARD_TIMEOUT", d.ForwardTimeout),
		"deadline of a forwarded trading command: the leader never starts it later [KESTREL_FORWARD_TIMEOUT]")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("KESTREL_METRICS_TOKEN", ""),
		"bearer token GET /metrics requires (at least 16 characters); empty: /metrics is open on a loopback address and closed beyond it [KESTREL_METRICS_TOKEN]")
	fs.StringVar(&c.TLSCert, "tls-cert", env("KESTREL_TLS_CERT", ""), "PEM certificate (chain) file: serve HTTPS directly, with --tls-key [KESTREL_TLS_CERT]")
	fs.StringVar(&c.TLSKey, "tls-key", env("KESTREL_TLS_KEY", ""), "PEM private key file of --tls-cert [KESTREL_TLS_KEY]")
	fs.IntVar(&c.WSMaxPerUser, "ws-max-per-user", int(envInt("KESTREL_WS_MAX_PER_USER", int64(d.WSMaxPerUser))),
		"realtime connections one user may hold at once; 0: no cap [KESTREL_WS_MAX_PER_USER]")
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", env("KESTREL_TRUSTED_PROXIES", ""),
		"reverse proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For names the client for rate limits and the audit log; empty: none [KESTREL_TRUSTED_PROXIES]")
	return c
}

func envInt(name string, def int64) int64 {
	v, ok := os.LookupEnv(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kestrel: ignoring %s=%q: %v\n", name, v, err)
		return def
	}
	return n
}

func envFloat(name string, def float64) float64 {
	v, ok := os.LookupEnv(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kestrel: ignoring %s=%q: %v\n", name, v, err)
		return def
	}
	return n
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	v, ok := os.LookupEnv(name)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kestrel: ignoring %s=%q: %v\n", name, v, err)
		return def
	}
	return d
}

// setupLogging installs the process logger; the returned LevelVar changes the level at run time.
// Records also go to a log book that /system/logs reads.
func setupLogging(level string, w io.Writer) (*slog.LevelVar, *logbook.Book, error) {
	l, err := app.ParseLogLevel(level)
	if err != nil {
		return nil, nil, err
	}
	lv := new(slog.LevelVar)
	lv.Set(l)
	book := logbook.New(2000)
	slog.SetDefault(slog.New(book.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}))))
	return lv, book, nil
}

// webUI returns the embedded app, or nil when this build has none.
func webUI() fs.FS {
	sub, err := fs.Sub(web.Dist, "dist")
	if err != nil {
		return nil
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil
	}
	return sub
}
