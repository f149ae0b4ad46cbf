package settings

import "github.com/shopspring/decimal"

// Version of the settings document format.
const Version = "1.0.0"

// Defaults returns the spec's defaults (section 9).
func Defaults() Settings {
	return Settings{
		Version: Version,
		API: API{
			Exchange:   Exchange{Provider: "sandbox", Sandbox: true, Timeout: 30000, RateLimit: 10},
			MarketData: MarketData{Source: "replay"},
			AI:         AIProvider{Provider: "builtin", Model: "gpt-4.1-nano", Timeout: 60000, BacktestMaxModelCalls: 2000},
		},
		Trading: Trading{
			DefaultParameters: DefaultParameters{Quantity: 0.01, OrderType: "market"},
			RiskManagement: RiskManagement{MaxPositionSize: 0.1, DailyLossLimit: 0.05, MaxDrawdown: 0.15, StopLossPercent: 0.02,
				MaxOpenPositions: 10, MaxDailyTrades: 50, MinTradeAmount: 10, MaxTradeAmount: 10000, MaxLeverage: 1,
				TakeProfitPercent: 0.04},
			Automation: Automation{ConfirmTrades: true, EnableStopLoss: true},
			Promotion: Promotion{PaperStartingUSD: decimal.NewFromInt(10_000),
				Paper: PaperGates{RequireWalkForward: true, MinOOSTrades: 30, MinOOSSharpe: 0.5},
				Live:  LiveGates{MinPaperDays: 14, MinPaperTrades: 20}},
		},
		UI: DefaultUI(),
		System: System{
			Monitoring:    Monitoring{EnableHealthChecks: true, HealthCheckInterval: 60000},
			Logging:       Logging{Level: "INFO", LogRetention: 7},
			Backup:        Backup{EnableAutoBackup: true, BackupInterval: 86400000, BackupRetention: 7},
			Security:      Security{SessionTimeout: 3600000},
			Performance:   Performance{EnableCaching: true, CacheTimeout: 300000, EnableCompression: true, MaxConcurrentRequests: 10, RequestTimeout: 30000},
			Notifications: NotifyServers{SMTPPort: 587, SMTPSecurity: "starttls", DigestTime: "00:00"},
			Retention:     Retention{Backtests: 90, Sweeps: 90, Jobs: 30, Notifications: 30, AIDecisions: 365, AuditLog: 365},
			Quotas:        Quotas{StoredBacktests: 100, ActiveBacktests: 5, ActiveSweeps: 2, RequestBacktests: 5, MinFreeDiskMB: 1024},
		},
	}
}

// DefaultUI is the per-user section's defaults.
func DefaultUI() UI {
	return UI{
		Theme:         Theme{Mode: "dark", FontSize: "medium"},
		Dashboard:     Dashboard{ShowMetrics: true, ShowCharts: true, ShowRecentTrades: true, RefreshInterval: 5000},
		Charts:        Charts{Type: "candlestick", Timeframe: "1h"},
		Notifications: Notifications{Trades: true, Alerts: true, System: true},
		Display:       Display{Currency: "USD", DecimalPlaces: 2, ThousandsSeparator: ",", DateFormat: "MM/DD/YYYY", TimeFormat: "24h"},
		Language:      Language{Timezone: "UTC"},
	}
}

// Option lists (spec section 9).
var (
	ThemeModes     = []string{"light", "dark", "auto"}
	FontSizes      = []string{"small", "medium", "large"}
	ChartTypes     = []string{"candlestick", "line", "area"}
	Timeframes     = []string{"1m", "5m", "15m", "1h", "4h", "1d"}
	Currencies     = []string{"USD", "EUR", "GBP", "BTC", "ETH"}
	DecimalChoices = []int{0, 2, 4, 6, 8}
	DateFormats    = []string{"MM/DD/YYYY", "DD/MM/YYYY", "YYYY-MM-DD"}
	TimeFormats    = []string{"12h", "24h"}
	Separators     = []string{",", ".", " "}
	Timezones      = []string{"UTC", "America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Asia/Singapore", "Australia/Sydney"}
	LogLevels      = []string{"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
	AIModels       = []string{"gpt-4.1-nano", "gpt-4-turbo", "claude-3-sonnet", "llama-2-70b"}
	OrderTypes     = []string{"market", "limit"}
	ExchangeKinds  = []string{"sandbox", "coinbase"}
	MarketSources  = []string{"replay", "coinbase"}
	AIKinds        = []string{"builtin", "replicate", "openai"}
	SMTPSecurities = []string{"starttls", "tls"}
)
