// Package settings is the platform settings document: its schema, the spec's
// defaults and bounds, validation with the spec's messages, secret sealing,
// and import/export. It does no I/O of its own beyond the store it is given.
package settings

import "github.com/shopspring/decimal"

// Settings is the whole document (spec section 3, plus the providers of
// beyond-the-spec). api, trading and system are platform-wide; ui is per user.
type Settings struct {
	Version     string  `json:"version"`
	LastUpdated string  `json:"lastUpdated"`
	API         API     `json:"api"`
	Trading     Trading `json:"trading"`
	UI          UI      `json:"ui"`
	System      System  `json:"system"`
}

// API holds the exchange and AI provider connections.
type API struct {
	Exchange   Exchange   `json:"exchange"`
	MarketData MarketData `json:"marketData"`
	AI         AIProvider `json:"ai"`
}

// MarketData is where prices come from, apart from where orders go: the
// sandbox (paper) venue trades on either source; the Coinbase venue always
// on Coinbase's own market.
type MarketData struct {
	Source string `json:"source"` // replay | coinbase (public market data, no key)
}

// Exchange is the exchange connection; provider sandbox needs no keys.
type Exchange struct {
	Provider  string `json:"provider"` // sandbox | coinbase
	APIKey    string `json:"apiKey"`
	APISecret string `json:"apiSecret"`
	Sandbox   bool   `json:"sandbox"`
	Timeout   int    `json:"timeout"`   // ms
	RateLimit int    `json:"rateLimit"` // requests/s
}

// AIProvider is the model provider; builtin is the offline rules analyst.
type AIProvider struct {
	Provider string `json:"provider"` // builtin | replicate | openai
	APIToken string `json:"apiToken"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseUrl"` // OpenAI-compatible endpoints
	Timeout  int    `json:"timeout"` // ms
	// BacktestMaxModelCalls caps the model calls of one live-model backtest
	// (0: the default, 2,000).
	BacktestMaxModelCalls int `json:"backtestMaxModelCalls"`
	// Pricing is each model's price in USD per million tokens, by the model
	// name decisions record (the provider's reported model, e.g. fake-model
	// or openai/gpt-4.1-nano) or the configured option. A model without a
	// price gives decisions an unknown cost, never 0.
	Pricing map[string]ModelPrice `json:"pricing,omitempty"`
	// MonthlyBudget caps each provider's AI spend per calendar month (UTC),
	// in USD; when a provider's month reaches it, AI decisions on it pause.
	MonthlyBudget map[string]decimal.Decimal `json:"monthlyBudget,omitempty"`
}

// ModelPrice is a model's price in USD per million input and output tokens.
type ModelPrice struct {
	Input  decimal.Decimal `json:"input"`
	Output decimal.Decimal `json:"output"`
}

// Trading holds defaults, risk limits and automation switches.
type Trading struct {
	DefaultParameters DefaultParameters `json:"defaultParameters"`
	RiskManagement    RiskManagement    `json:"riskManagement"`
	Automation        Automation        `json:"automation"`
	// Promotion holds the gates a strategy version passes to go to paper
	// and then live (docs/PROMOTION.md).
	Promotion Promotion `json:"promotion"`
}

// Promotion is the gates of a strategy version's promotion, checked on the
// server, and the paper account a paper stage is funded with.
type Promotion struct {
	// PaperStartingUSD funds each paper stage's own paper account.
	PaperStartingUSD decimal.Decimal `json:"paperStartingUSD"`
	Paper            PaperGates      `json:"paper"`
	Live             LiveGates       `json:"live"`
}

// PaperGates are checked against the newest finished walk-forward sweep of
// the version (or of the version it was derived from).
type PaperGates struct {
	// RequireWalkForward: without one, no version goes to paper.
	RequireWalkForward bool    `json:"requireWalkForward"`
	MinOOSTrades       int     `json:"minOOSTrades"`
	MinOOSSharpe       float64 `json:"minOOSSharpe"`
}

// LiveGates are checked against the paper stage, with an operator's approval.
type LiveGates struct {
	MinPaperDays   int `json:"minPaperDays"`
	MinPaperTrades int `json:"minPaperTrades"`
}

// DefaultParameters prefill the trading form.
type DefaultParameters struct {
	Quantity  float64 `json:"quantity"`
	OrderType string  `json:"orderType"`
}

// RiskManagement are the risk limits (fractions of portfolio value, USD amounts).
type RiskManagement struct {
	MaxPositionSize  float64 `json:"maxPositionSize"`
	DailyLossLimit   float64 `json:"dailyLossLimit"`
	MaxDrawdown      float64 `json:"maxDrawdown"`
	StopLossPercent  float64 `json:"stopLossPercent"`
	MaxOpenPositions int     `json:"maxOpenPositions"`
	MaxDailyTrades   int     `json:"maxDailyTrades"`
	MinTradeAmount   float64 `json:"minTradeAmount"`
	MaxTradeAmount   float64 `json:"maxTradeAmount"`
	MaxLeverage      float64 `json:"maxLeverage"`
	// TakeProfitPercent is beyond the spec: how far above a BUY's fill price
	// the protective take-profit SELL is placed (with enableTakeProfit), as a
	// fraction of the fill price. It shares an OCO group with the stop-loss.
	TakeProfitPercent float64 `json:"takeProfitPercent"`
}

// Automation switches; emergencyStop is the same switch as the Stop button.
type Automation struct {
	AutoTrading      bool `json:"autoTrading"`
	EmergencyStop    bool `json:"emergencyStop"`
	ConfirmTrades    bool `json:"confirmTrades"`
	EnableStopLoss   bool `json:"enableStopLoss"`
	EnableTakeProfit bool `json:"enableTakeProfit"`
	// TrailingStopLoss makes the protective stop-loss a trailing stop: it
	// starts stopLossPercent under the fill and follows each new high at
	// that distance (live and in backtests alike).
	TrailingStopLoss bool `json:"trailingStopLoss"`
}

// UI is the per-user section.
type UI struct {
	Theme         Theme         `json:"theme"`
	Dashboard     Dashboard     `json:"dashboard"`
	Charts        Charts        `json:"charts"`
	Notifications Notifications `json:"notifications"`
	Display       Display       `json:"display"`
	Language      Language      `json:"language"`
}

type Theme struct {
	Mode     string `json:"mode"`
	FontSize string `json:"fontSize"`
}

type Dashboard struct {
	ShowMetrics      bool `json:"showMetrics"`
	ShowCharts       bool `json:"showCharts"`
	ShowRecentTrades bool `json:"showRecentTrades"`
	RefreshInterval  int  `json:"refreshInterval"` // ms
}

type Charts struct {
	Type      string `json:"type"`
	Timeframe string `json:"timeframe"`
}

type Notifications struct {
	Trades bool `json:"trades"`
	Alerts bool `json:"alerts"`
	System bool `json:"system"`
	Email  bool `json:"email"`
	Push   bool `json:"push"`
}

type Display struct {
	Currency           string `json:"currency"`
	DecimalPlaces      int    `json:"decimalPlaces"`
	ThousandsSeparator string `json:"thousandsSeparator"`
	DateFormat         string `json:"dateFormat"`
	TimeFormat         string `json:"timeFormat"`
}

type Language struct {
	Timezone string `json:"timezone"`
}

// System holds monitoring, logging, backup, security and performance settings.
type System struct {
	Monitoring  Monitoring  `json:"monitoring"`
	Logging     Logging     `json:"logging"`
	Backup      Backup      `json:"backup"`
	Security    Security    `json:"security"`
	Performance Performance `json:"performance"`
	// Notifications is beyond the spec: the mail server email channels
	// send through, the daily digest's time and the Telegram Bot API's URL.
	Notifications NotifyServers `json:"notifications"`
	// Retention and Quotas are beyond the spec: how long what grows with
	// use is kept, and what each user may store or queue (docs/SECURITY.md).
	Retention Retention `json:"retention"`
	Quotas    Quotas    `json:"quotas"`
}

// Retention is how many days each kind of record is kept, pruned hourly
// (ops/retention); 0 keeps it for ever. Nothing queued, running or pending
// is pruned.
type Retention struct {
	Backtests     int `json:"backtests"`     // backtest reports and the finished jobs that made them
	Sweeps        int `json:"sweeps"`        // finished parameter sweeps with their trials
	Jobs          int `json:"jobs"`          // other finished jobs (market-data backfills)
	Notifications int `json:"notifications"` // delivered or failed notification deliveries
	AIDecisions   int `json:"aiDecisions"`   // strategy evaluations: the AI's and the rules' decisions
	AuditLog      int `json:"auditLog"`      // audit log entries
}

// Quotas bound what one user may store or queue, and the free disk space
// below which new long work is refused (orders, cancels and the emergency
// stop never are).
type Quotas struct {
	StoredBacktests  int `json:"storedBacktests"`  // backtest reports from jobs, per user
	ActiveBacktests  int `json:"activeBacktests"`  // backtest jobs queued or running, per user
	ActiveSweeps     int `json:"activeSweeps"`     // sweeps queued or running, per user
	RequestBacktests int `json:"requestBacktests"` // reports of GET /api/strategy/backtest kept per user (the newest)
	MinFreeDiskMB    int `json:"minFreeDiskMB"`    // free space of the data directory's disk
}

// NotifyServers are the platform's notification servers (notify package).
type NotifyServers struct {
	SMTPHost     string `json:"smtpHost"` // "": email is off
	SMTPPort     int    `json:"smtpPort"`
	SMTPSecurity string `json:"smtpSecurity"` // starttls | tls
	SMTPUser     string `json:"smtpUser"`
	SMTPPassword string `json:"smtpPassword"` // sealed at rest
	SMTPFrom     string `json:"smtpFrom"`
	// DigestTime is when the daily digest goes out, HH:MM UTC.
	DigestTime string `json:"digestTime"`
	// TelegramAPIURL is the Bot API's base URL ("" : Telegram's own);
	// KESTREL_TELEGRAM_API_URL overrides it.
	TelegramAPIURL string `json:"telegramApiUrl"`
	// AllowLoopbackTargets lets webhook and push channels reach this
	// machine (loopback, and plain http:// to it); off: https:// to public
	// addresses only (issue 33, item 8).
	AllowLoopbackTargets bool `json:"allowLoopbackTargets"`
}

type Monitoring struct {
	EnableHealthChecks  bool `json:"enableHealthChecks"`
	HealthCheckInterval int  `json:"healthCheckInterval"` // ms
}

type Logging struct {
	Level        string `json:"level"`
	LogRetention int    `json:"logRetention"` // days
}

// Backup is the automatic backup, into the data directory's backups folder.
type Backup struct {
	EnableAutoBackup bool `json:"enableAutoBackup"`
	BackupInterval   int  `json:"backupInterval"`  // ms
	BackupRetention  int  `json:"backupRetention"` // count of backups kept
}

type Security struct {
	EnableTwoFactor bool `json:"enableTwoFactor"` // operators must sign in with TOTP (auth.SetRequireOperatorTOTP)
	SessionTimeout  int  `json:"sessionTimeout"`  // ms
}

type Performance struct {
	EnableCaching         bool `json:"enableCaching"`
	CacheTimeout          int  `json:"cacheTimeout"` // ms
	EnableCompression     bool `json:"enableCompression"`
	MaxConcurrentRequests int  `json:"maxConcurrentRequests"`
	RequestTimeout        int  `json:"requestTimeout"` // ms
}
