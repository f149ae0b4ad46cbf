package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/sqlite"
)

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }

func TestDefaultsAreValid(t *testing.T) {
	d := Defaults()
	if r := Validate(&d); !r.IsValid || len(r.Warnings) != 0 {
		t.Fatalf("defaults: %+v", r)
	}
}

func TestTakeProfitDefaultAndBounds(t *testing.T) {
	d := Defaults()
	if got, want := d.Trading.RiskManagement.TakeProfitPercent, 0.04; got != want {
		t.Errorf("default take profit = %v, want %v", got, want)
	}
	for _, v := range []float64{0.005, 0.04, 1} {
		s := Defaults()
		s.Trading.RiskManagement.TakeProfitPercent = v
		if r := Validate(&s); !r.IsValid {
			t.Errorf("take profit %v: %+v", v, r.Errors)
		}
	}
}

func TestValidationMessagesAndBounds(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Settings)
		field   string
		message string
		warning bool
	}{
		{"coinbase key", func(s *Settings) { s.API.Exchange.Provider = "coinbase"; s.API.Exchange.APISecret = "x" }, "api.exchange.apiKey", "Coinbase API key is required", false},
		{"coinbase secret", func(s *Settings) { s.API.Exchange.Provider = "coinbase"; s.API.Exchange.APIKey = "x" }, "api.exchange.apiSecret", "Coinbase API secret is required", false},
		{"replicate token", func(s *Settings) { s.API.AI.Provider = "replicate" }, "api.ai.apiToken", "Replicate API token is recommended for AI features", true},
		{"position warning", func(s *Settings) { s.Trading.RiskManagement.MaxPositionSize = 0.51 }, "trading.riskManagement.maxPositionSize", "Position size above 50% is high risk", true},
		{"daily loss warning", func(s *Settings) { s.Trading.RiskManagement.DailyLossLimit = 0.21 }, "trading.riskManagement.dailyLossLimit", "Daily loss limit above 20% is high risk", true},
		{"exchange timeout low", func(s *Settings) { s.API.Exchange.Timeout = 999 }, "api.exchange.timeout", "Exchange timeout must be between 1000 and 120000 ms", false},
		{"exchange timeout high", func(s *Settings) { s.API.Exchange.Timeout = 120001 }, "api.exchange.timeout", "Exchange timeout must be between 1000 and 120000 ms", false},
		{"rate limit", func(s *Settings) { s.API.Exchange.RateLimit = 101 }, "api.exchange.rateLimit", "Rate limit must be between 1 and 100 requests/sec", false},
		{"replicate model", func(s *Settings) { s.API.AI.Provider = "replicate"; s.API.AI.Model = "llama3.2" }, "api.ai.model", "AI model must be one of [gpt-4.1-nano gpt-4-turbo claude-3-sonnet llama-2-70b]", false},
		{"ai model", func(s *Settings) { s.API.AI.Model = " " }, "api.ai.model", "AI model is required", false},
		{"ai timeout", func(s *Settings) { s.API.AI.Timeout = 9999 }, "api.ai.timeout", "AI provider timeout must be between 10000 and 300000 ms", false},
		{"negative price", func(s *Settings) {
			s.API.AI.Pricing = map[string]ModelPrice{"m": {Input: decimal.RequireFromString("-0.1"), Output: decimal.Zero}}
		}, "api.ai.pricing.m", "Prices per million tokens cannot be negative", false},
		{"budget provider", func(s *Settings) { s.API.AI.MonthlyBudget = map[string]decimal.Decimal{"acme": decimal.NewFromInt(5)} }, "api.ai.monthlyBudget.acme", "Monthly budget names an unknown AI provider: acme", false},
		{"negative budget", func(s *Settings) {
			s.API.AI.MonthlyBudget = map[string]decimal.Decimal{"openai": decimal.NewFromInt(-1)}
		}, "api.ai.monthlyBudget.openai", "Monthly budget cannot be negative", false},
		{"backtest model calls", func(s *Settings) { s.API.AI.BacktestMaxModelCalls = 100001 }, "api.ai.backtestMaxModelCalls", "Model calls per backtest must be between 1 and 100000 calls", false},
		{"quantity", func(s *Settings) { s.Trading.DefaultParameters.Quantity = 0.0005 }, "trading.defaultParameters.quantity", "Default quantity must be at least 0.001", false},
		{"max position", func(s *Settings) { s.Trading.RiskManagement.MaxPositionSize = 1.01 }, "trading.riskManagement.maxPositionSize", "Max position size must be between 1% and 100%", false},
		{"daily loss", func(s *Settings) { s.Trading.RiskManagement.DailyLossLimit = 0.6 }, "trading.riskManagement.dailyLossLimit", "Daily loss limit must be between 1% and 50%", false},
		{"drawdown", func(s *Settings) { s.Trading.RiskManagement.MaxDrawdown = 0.04 }, "trading.riskManagement.maxDrawdown", "Max drawdown must be between 5% and 50%", false},
		{"stop loss step", func(s *Settings) { s.Trading.RiskManagement.StopLossPercent = 0.007 }, "trading.riskManagement.stopLossPercent", "Stop loss must be a multiple of 0.5%", false},
		{"take profit low", func(s *Settings) { s.Trading.RiskManagement.TakeProfitPercent = 0.004 }, "trading.riskManagement.takeProfitPercent", "Take profit must be between 0.5% and 100%", false},
		{"take profit high", func(s *Settings) { s.Trading.RiskManagement.TakeProfitPercent = 1.01 }, "trading.riskManagement.takeProfitPercent", "Take profit must be between 0.5% and 100%", false},
		{"open positions", func(s *Settings) { s.Trading.RiskManagement.MaxOpenPositions = 0 }, "trading.riskManagement.maxOpenPositions", "Max open positions must be between 1 and 100", false},
		{"daily trades", func(s *Settings) { s.Trading.RiskManagement.MaxDailyTrades = 1001 }, "trading.riskManagement.maxDailyTrades", "Max daily trades must be between 1 and 1000", false},
		{"min trade", func(s *Settings) { s.Trading.RiskManagement.MinTradeAmount = 0.5 }, "trading.riskManagement.minTradeAmount", "Min trade amount must be between 1 and 1000", false},
		{"max trade", func(s *Settings) { s.Trading.RiskManagement.MaxTradeAmount = 99 }, "trading.riskManagement.maxTradeAmount", "Max trade amount must be between 100 and 1000000", false},
		{"leverage", func(s *Settings) { s.Trading.RiskManagement.MaxLeverage = 10.5 }, "trading.riskManagement.maxLeverage", "Max leverage must be between 1 and 10", false},
		{"refresh", func(s *Settings) { s.UI.Dashboard.RefreshInterval = 500 }, "ui.dashboard.refreshInterval", "Refresh interval must be between 1000 and 30000 ms", false},
		{"health interval", func(s *Settings) { s.System.Monitoring.HealthCheckInterval = 5000 }, "system.monitoring.healthCheckInterval", "Health check interval must be between 10000 and 300000 ms", false},
		{"log retention", func(s *Settings) { s.System.Logging.LogRetention = 366 }, "system.logging.logRetention", "Log retention must be between 1 and 365 days", false},
		{"backup interval", func(s *Settings) { s.System.Backup.BackupInterval = 1000 }, "system.backup.backupInterval", "Backup interval must be between 3600000 and 604800000 ms (1 hour to 7 days)", false},
		{"backup retention", func(s *Settings) { s.System.Backup.BackupRetention = 0 }, "system.backup.backupRetention", "Backup retention must be between 1 and 365", false},
		{"session timeout", func(s *Settings) { s.System.Security.SessionTimeout = 60000 }, "system.security.sessionTimeout", "Session timeout must be between 300000 and 86400000 ms (5 minutes to 24 hours)", false},
		{"cache timeout", func(s *Settings) { s.System.Performance.CacheTimeout = 3600001 }, "system.performance.cacheTimeout", "Cache timeout must be between 60000 and 3600000 ms (1 minute to 1 hour)", false},
		{"concurrency", func(s *Settings) { s.System.Performance.MaxConcurrentRequests = 101 }, "system.performance.maxConcurrentRequests", "Max concurrent requests must be between 1 and 100", false},
		{"request timeout", func(s *Settings) { s.System.Performance.RequestTimeout = 4999 }, "system.performance.requestTimeout", "Request timeout must be between 5000 and 120000 ms", false},
		{"log level", func(s *Settings) { s.System.Logging.Level = "TRACE" }, "system.logging.level", "Log level must be one of [DEBUG INFO WARNING ERROR CRITICAL]", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Defaults()
			tc.mutate(&s)
			r := Validate(&s)
			list := r.Errors
			if tc.warning {
				list = r.Warnings
				if !r.IsValid {
					t.Fatalf("a warning must not invalidate: %+v", r)
				}
			} else if r.IsValid {
				t.Fatalf("want invalid: %+v", r)
			}
			for _, i := range list {
				if i.Field == tc.field && i.Message == tc.message {
					return
				}
			}
			t.Fatalf("missing %s %q in %+v", tc.field, tc.message, r)
		})
	}
	if r := Validate(nil); r.IsValid || r.Errors[0].Message != "Settings object is required" {
		t.Fatalf("nil: %+v", r)
	}
}

func newService(t *testing.T) (*Service, *sqlite.Store, string) {
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	key, err := LoadOrCreateKey("", dir)
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := NewSealer(key)
	svc, err := NewService(context.Background(), st, sealer, clock{})
	if err != nil {
		t.Fatal(err)
	}
	return svc, st, dir
}

var (
	op     = domain.User{ID: "op", Email: "op@example.com", Role: domain.RoleOperator}
	trader = domain.User{ID: "tr", Email: "tr@example.com", Role: domain.RoleTrader}
)

func TestSecretsSealedMaskedAndKept(t *testing.T) {
	ctx := context.Background()
	svc, st, dir := newService(t)
	if fi, err := os.Stat(filepath.Join(dir, "secret.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	s, _ := svc.Get(ctx, op.ID)
	s.API.Exchange.Provider = "coinbase"
	s.API.Exchange.APIKey = "organizations/abc/apiKeys/KEY-PLAINTEXT-1234"
	s.API.Exchange.APISecret = "-----BEGIN EC PRIVATE KEY-----SECRET-PLAINTEXT-9876"
	saved, _, err := svc.Save(ctx, op, s)
	if err != nil {
		t.Fatal(err)
	}
	if saved.API.Exchange.APIKey != "••••1234" || saved.API.Exchange.APISecret != "••••9876" {
		t.Fatalf("response secrets = %q %q, want masks", saved.API.Exchange.APIKey, saved.API.Exchange.APISecret)
	}
	raw, _ := st.GetValue(ctx, kvPlatform)
	if strings.Contains(raw, "PLAINTEXT") {
		t.Fatalf("plaintext secret stored: %s", raw)
	}
	dbFile, _ := os.ReadFile(filepath.Join(dir, "k.db"))
	wal, _ := os.ReadFile(filepath.Join(dir, "k.db-wal"))
	if strings.Contains(string(dbFile)+string(wal), "PLAINTEXT") {
		t.Fatal("plaintext secret found in the database files")
	}
	// Sending the masks back keeps the stored secrets.
	saved.Trading.RiskManagement.MaxOpenPositions = 5
	if _, _, err := svc.Save(ctx, op, saved); err != nil {
		t.Fatal(err)
	}
	if p := svc.Platform(); p.API.Exchange.APISecret != "-----BEGIN EC PRIVATE KEY-----SECRET-PLAINTEXT-9876" || p.Trading.RiskManagement.MaxOpenPositions != 5 {
		t.Fatalf("platform after mask round trip: %+v", p.API.Exchange)
	}
	ex, _ := svc.Export(ctx, op, false)
	if ex.Settings.API.Exchange.APISecret != "" || len(ex.Checksum) != 16 {
		t.Fatalf("export leaks or bad checksum: %+v", ex)
	}
	// A restart decrypts with the key file.
	svc2, err := NewService(ctx, st, svc.sealer, clock{})
	if err != nil || svc2.Platform().API.Exchange.APIKey != "organizations/abc/apiKeys/KEY-PLAINTEXT-1234" {
		t.Fatalf("reload: %v %+v", err, svc2.Platform().API.Exchange)
	}
}

func TestTraderSavesOnlyUI(t *testing.T) {
	ctx := context.Background()
	svc, _, _ := newService(t)
	s, _ := svc.Get(ctx, trader.ID)
	s.UI.Theme.Mode = "light"
	if _, _, err := svc.Save(ctx, trader, s); err != nil {
		t.Fatalf("trader ui save: %v", err)
	}
	if got, _ := svc.Get(ctx, trader.ID); got.UI.Theme.Mode != "light" {
		t.Fatal("ui not kept")
	}
	if got, _ := svc.Get(ctx, op.ID); got.UI.Theme.Mode != "dark" {
		t.Fatal("ui must be per user")
	}
	s.Trading.RiskManagement.MaxOpenPositions = 3
	if _, _, err := svc.Save(ctx, trader, s); domain.ErrorCode(err) != domain.EForbidden {
		t.Fatalf("trader platform save: %v, want forbidden", err)
	}
}

func TestInvalidSaveStoresNothing(t *testing.T) {
	ctx := context.Background()
	svc, _, _ := newService(t)
	s, _ := svc.Get(ctx, op.ID)
	s.Trading.RiskManagement.MaxOpenPositions = 7
	s.System.Logging.Level = "TRACE"
	_, res, err := svc.Save(ctx, op, s)
	if domain.ErrorCode(err) != domain.EInvalid || res.IsValid {
		t.Fatalf("err = %v", err)
	}
	if svc.Platform().Trading.RiskManagement.MaxOpenPositions != 10 {
		t.Fatal("an invalid save changed the settings")
	}
}

func TestStoredBeforeTakeProfitLoadsItsDefault(t *testing.T) {
	ctx := context.Background()
	svc, st, _ := newService(t)
	old := `{"version":"1.0.0","trading":{"riskManagement":{"maxPositionSize":0.2,"stopLossPercent":0.03}}}`
	if err := st.PutValue(ctx, kvPlatform, old); err != nil {
		t.Fatal(err)
	}
	svc2, err := NewService(ctx, st, svc.sealer, clock{})
	if err != nil {
		t.Fatal(err)
	}
	r := svc2.Platform().Trading.RiskManagement
	if got, want := r.TakeProfitPercent, 0.04; got != want {
		t.Errorf("take profit = %v, want the default %v", got, want)
	}
	if got, want := r.StopLossPercent, 0.03; got != want {
		t.Errorf("stop loss = %v, want the stored %v", got, want)
	}
}

// failingUI is a store whose writes of personal UI sections fail, as a
// full disk can refuse the second of a save's two writes.
type failingUI struct{ domain.KVStore }

func (f failingUI) PutValue(ctx context.Context, key, value string) error {
	if strings.HasPrefix(key, kvUIPrefix) {
		return domain.Unavailable(nil, domain.MsgDatabaseUnavailable)
	}
	return f.KVStore.PutValue(ctx, key, value)
}

// A platform change that was stored is announced even when storing the UI
// part then fails: the save answers unavailable, the retry finds the
// platform unchanged, so without the announcement the running system
// would never apply it.
func TestStoredPlatformChangeIsAnnouncedWhenTheUIWriteFails(t *testing.T) {
	ctx := context.Background()
	svc, _, _ := newService(t)
	svc.kv = failingUI{svc.kv}
	var heard int
	svc.OnChange(func(_ context.Context, _, now Settings, _ domain.User) {
		heard = now.Trading.RiskManagement.MaxOpenPositions
	})
	s, err := svc.Get(ctx, op.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Trading.RiskManagement.MaxOpenPositions = 7
	if _, _, err := svc.Save(ctx, op, s); domain.ErrorCode(err) != domain.EUnavailable {
		t.Fatalf("save with the UI write failing: %v, want unavailable", err)
	}
	if svc.Platform().Trading.RiskManagement.MaxOpenPositions != 7 || heard != 7 {
		t.Fatalf("platform %d, announced %d; want the stored change (7) in force and announced",
			svc.Platform().Trading.RiskManagement.MaxOpenPositions, heard)
	}
}
