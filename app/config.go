// Package app wires Kestrel together: store, services, HTTP server. Tests boot
// the whole server through it on port 0 with a temporary data directory.
package app

import (
	"fmt"
	"github.com/shopspring/decimal"
	"kestrel/httpapi"
	"kestrel/logbook"
	"kestrel/notify"
	"kestrel/ops/marketwatch"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Config is the process configuration (flags and KESTREL_* environment variables).
type Config struct {
	Addr        string        // listen address
	DataDir     string        // where the SQLite file and keys live
	DatabaseURL string        // empty: SQLite in DataDir; postgres://...: PostgreSQL
	LogLevel    string        // DEBUG, INFO, WARNING, ERROR, CRITICAL
	SessionTTL  time.Duration // bearer-token lifetime (sliding) until settings say otherwise
	SecretKey   string        // base64 32-byte key sealing secrets; empty: key file in DataDir
	// LogLevel is changed at run time by the settings when set.
	LogLevelVar *slog.LevelVar
	// LogBook receives the process's log records (nil: /system/logs shows persisted ones only).
	LogBook *logbook.Book
	// NotifyOptions tune notification delivery (tests shorten the
	// backoff); the zero value is production's.
	NotifyOptions notify.Options
	// SessionMaxAge is a sign-in's absolute lifetime, however much it is used.
	SessionMaxAge time.Duration
	// FreeDisk reads the bytes free on the data directory's disk (nil:
	// the file system's own reading); tests simulate a full disk with it.
	FreeDisk func(dir string) (uint64, error)

	ReplaySeed  int64   // seed of the replayed market's path inside each candle
	ReplaySpeed float64 // market seconds per wall second (demos); 1 is real time
	StartingUSD string  // sandbox account's funding on first start
	TakerFee    string  // sandbox taker fee rate
	MakerFee    string  // sandbox maker fee rate
	Spread      string  // extra fraction market orders pay beyond the bid/ask

	// MarketStaleAfter is how long the market feed may go without a price
	// before the 'Market data stale' alert and the automation pause.
	MarketStaleAfter time.Duration

	// NATSURL, with a PostgreSQL DatabaseURL, makes this process one instance
	// of a cluster (docs/SCALING.md); empty: one process, in-process bus.
	NATSURL string
	// InstanceID names this instance in the cluster (default: hostname-pid).
	InstanceID string
	// ClusterName prefixes the NATS subjects, so clusters sharing a NATS
	// server stay apart.
	ClusterName string
	// ForwardTimeout bounds how long a follower waits for the leader's answer.
	ForwardTimeout time.Duration

	// Coinbase endpoint overrides (empty: Coinbase's own hosts); tests and
	// staging point them at a fake exchange.
	CoinbaseAPIURL    string
	CoinbaseWSURL     string
	CoinbaseUserWSURL string

	// TelegramAPIURL is the Telegram Bot API's base URL (empty: Telegram's
	// own); tests and relays point it at another.
	TelegramAPIURL string

	// MetricsToken, when set, is the bearer token /metrics requires (for a
	// deployment whose port is reachable by others); empty: open on a
	// loopback address, closed beyond it.
	MetricsToken string

	// TLSCert and TLSKey (PEM files, both or neither) make the server speak
	// HTTPS itself; without them, an exposed instance belongs behind a TLS
	// proxy (docs/SECURITY.md).
	TLSCert, TLSKey string
	// WSMaxPerUser caps one user's realtime connections (0: no cap).
	WSMaxPerUser int
	// TrustedProxies lists the reverse proxies (addresses or CIDR prefixes,
	// comma-separated) whose X-Forwarded-For names the client for rate
	// limits and the audit log; empty: the peer's address is the client's.
	TrustedProxies string
}

// Clustered reports whether this process joins a cluster.
func (c Config) Clustered() bool { return c.NATSURL != "" }

// Defaults returns the embedded defaults.
func Defaults() Config {
	return Config{Addr: "127.0.0.1:8080", DataDir: "./data", LogLevel: "INFO", SessionTTL: time.Hour, SessionMaxAge: 12 * time.Hour,
		ReplaySeed: 1, ReplaySpeed: 1, StartingUSD: "100000", TakerFee: "0.006", MakerFee: "0.004", Spread: "0", ForwardTimeout: 5 * time.Second, ClusterName: "kestrel",
		MarketStaleAfter: marketwatch.StaleAfter, WSMaxPerUser: 10}
}

// SQLitePath is the embedded database file used when DatabaseURL is empty.
func (c Config) SQLitePath() string { return filepath.Join(c.DataDir, "kestrel.db") }

// IsPostgres reports whether the database URL selects PostgreSQL.
func (c Config) IsPostgres() bool {
	return strings.HasPrefix(c.DatabaseURL, "postgres://") || strings.HasPrefix(c.DatabaseURL, "postgresql://")
}

// Validate reports configuration that cannot work.
func (c Config) Validate() error {
	if c.Addr == "" {
		return fmt.Errorf("listen address is empty")
	}
	if c.DatabaseURL != "" && !c.IsPostgres() && !strings.HasPrefix(c.DatabaseURL, "sqlite:") {
		return fmt.Errorf("database URL must start with postgres://, postgresql:// or sqlite: (got %q)", redactURL(c.DatabaseURL))
	}
	if c.Clustered() && !c.IsPostgres() {
		return fmt.Errorf("a cluster (NATS URL set) needs a PostgreSQL database URL: SQLite is one process's database")
	}
	if c.Clustered() && !validName(c.ClusterName) {
		return fmt.Errorf("cluster name must be letters, digits, ., - or _ (got %q)", c.ClusterName)
	}
	if c.Clustered() && c.InstanceID != "" && !validName(c.InstanceID) {
		return fmt.Errorf("instance id must be letters, digits, ., - or _ (got %q)", c.InstanceID)
	}
	if c.Clustered() && c.ForwardTimeout < 100*time.Millisecond {
		return fmt.Errorf("forward timeout must be at least 100ms")
	}
	if c.MarketStaleAfter < time.Second {
		return fmt.Errorf("market stale-after must be at least 1s (got %s)", c.MarketStaleAfter)
	}
	if _, err := ParseLogLevel(c.LogLevel); err != nil {
		return err
	}
	if c.SessionTTL < time.Minute {
		return fmt.Errorf("session timeout must be at least a minute")
	}
	if c.SessionMaxAge < time.Minute {
		return fmt.Errorf("session max age must be at least a minute")
	}
	for _, u := range []struct {
		name, v string
		schemes []string
	}{{"Coinbase API URL", c.CoinbaseAPIURL, []string{"https://", "http://"}},
		{"Coinbase WebSocket URL", c.CoinbaseWSURL, []string{"wss://", "ws://"}}, {"Coinbase user WebSocket URL", c.CoinbaseUserWSURL, []string{"wss://", "ws://"}},
		{"Telegram API URL", c.TelegramAPIURL, []string{"https://", "http://"}}} {
		if u.v != "" && !strings.HasPrefix(u.v, u.schemes[0]) && !strings.HasPrefix(u.v, u.schemes[1]) {
			return fmt.Errorf("%s must start with %s or %s (got %q)", u.name, u.schemes[0], u.schemes[1], u.v)
		}
	}
	if c.MetricsToken != "" && !validBearer(c.MetricsToken) {
		return fmt.Errorf("metrics token must be at least 16 characters: letters, digits and - . _ ~ + /, optionally ending in = (a bearer token, RFC 6750)")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return fmt.Errorf("TLS needs both a certificate and a key (--tls-cert and --tls-key)")
	}
	if c.WSMaxPerUser < 0 {
		return fmt.Errorf("realtime connections per user must be 0 (no cap) or more (got %d)", c.WSMaxPerUser)
	}
	if _, err := httpapi.ParseTrustedProxies(c.TrustedProxies); err != nil {
		return err
	}
	if c.ReplaySpeed < 0 {
		return fmt.Errorf("replay speed must be positive")
	}
	for _, f := range []struct{ name, v, max string }{{"sandbox starting USD", c.StartingUSD, ""}, {"sandbox taker fee", c.TakerFee, "0.1"},
		{"sandbox maker fee", c.MakerFee, "0.1"}, {"sandbox spread", c.Spread, "0.1"}} {
		if f.v == "" {
			continue
		}
		d, err := decimal.NewFromString(f.v)
		if err != nil || d.IsNegative() || (f.max != "" && d.GreaterThan(decimal.RequireFromString(f.max))) {
			if f.max == "" {
				return fmt.Errorf("%s must be a non-negative number (got %q)", f.name, f.v)
			}
			return fmt.Errorf("%s must be a number from 0 to %s (got %q)", f.name, f.max, f.v)
		}
	}
	return nil
}

// ParseLogLevel maps the spec's level names to slog levels.
func ParseLogLevel(s string) (slog.Level, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "DEBUG":
		return slog.LevelDebug, nil
	case "INFO", "":
		return slog.LevelInfo, nil
	case "WARNING", "WARN":
		return slog.LevelWarn, nil
	case "ERROR":
		return slog.LevelError, nil
	case "CRITICAL":
		return slog.LevelError + 4, nil
	}
	return 0, fmt.Errorf("log level must be DEBUG, INFO, WARNING, ERROR or CRITICAL (got %q)", s)
}

func redactURL(u string) string {
	if i := strings.Index(u, "@"); i >= 0 {
		if j := strings.Index(u, "://"); j >= 0 && j < i {
			return u[:j+3] + "***" + u[i:]
		}
	}
	return u
}

// validName accepts a NATS subject token (and a readable instance id).
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// bearerToken is RFC 6750's b64token: what a client can send after "Bearer ".
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9._~+/-]+=*$`)

// validBearer accepts a metrics token a scraper can send and nobody guesses.
func validBearer(s string) bool { return len(s) >= 16 && bearerToken.MatchString(s) }
