package settings

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Issue is one validation finding.
type Issue struct {
	Field    string `json:"field"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // error | warning
}

// Result is the spec's validation result.
type Result struct {
	IsValid  bool    `json:"isValid"`
	Errors   []Issue `json:"errors"`
	Warnings []Issue `json:"warnings"`
}

type checker struct{ r Result }

func (c *checker) err(field, msg string) { c.r.Errors = append(c.r.Errors, Issue{field, msg, "error"}) }
func (c *checker) warn(field, msg string) {
	c.r.Warnings = append(c.r.Warnings, Issue{field, msg, "warning"})
}

func (c *checker) intRange(field, label string, v, lo, hi int, unit string) {
	if v < lo || v > hi {
		c.err(field, fmt.Sprintf("%s must be between %d and %d%s", label, lo, hi, unit))
	}
}

func (c *checker) floatRange(field, label string, v, lo, hi float64) {
	if v < lo || v > hi {
		c.err(field, fmt.Sprintf("%s must be between %s and %s", label, plain(lo), plain(hi)))
	}
}

// percentRange is floatRange for a limit stored as a fraction: the screen
// shows it in percent, so the message does too ("between 1% and 100%").
func (c *checker) percentRange(field, label string, v, lo, hi float64) {
	if v < lo || v > hi {
		c.err(field, fmt.Sprintf("%s must be between %s%% and %s%%", label, pct(lo), pct(hi)))
	}
}

// percentStep is step for a fraction shown in percent.
func (c *checker) percentStep(field, label string, v, step float64) {
	n := v / step
	if d := n - float64(int64(n+0.5)); d > 1e-6 || d < -1e-6 {
		c.err(field, fmt.Sprintf("%s must be a multiple of %s%%", label, pct(step)))
	}
}

// pct writes a fraction as a percentage without binary noise: 0.005 -> 0.5.
func pct(x float64) string { return strconv.FormatFloat(x*100, 'f', -1, 32) }

// plain writes a bound as people read it: 1000000, not 1e+06.
func plain(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// step checks v is a multiple of step (with a tolerance for binary fractions).
func (c *checker) step(field, label string, v, step float64) {
	n := v / step
	if d := n - float64(int64(n+0.5)); d > 1e-6 || d < -1e-6 {
		c.err(field, fmt.Sprintf("%s must be a multiple of %s", label, plain(step)))
	}
}

func oneOf[T comparable](c *checker, field, label string, v T, options []T) {
	if !slices.Contains(options, v) {
		c.err(field, fmt.Sprintf("%s must be one of %v", label, options))
	}
}

// Validate runs every rule of spec section 5 (bounds, required keys, warnings).
// Errors block saving; warnings do not.
func Validate(s *Settings) Result {
	c := &checker{}
	if s == nil {
		c.err("settings", "Settings object is required")
		return c.done()
	}
	validateAPI(c, s.API)
	validateTrading(c, s.Trading)
	validateUI(c, s.UI)
	validateSystem(c, s.System)
	return c.done()
}

func (c *checker) done() Result {
	if c.r.Errors == nil {
		c.r.Errors = []Issue{}
	}
	if c.r.Warnings == nil {
		c.r.Warnings = []Issue{}
	}
	c.r.IsValid = len(c.r.Errors) == 0
	return c.r
}

func validateAPI(c *checker, a API) {
	e := a.Exchange
	oneOf(c, "api.exchange.provider", "Exchange provider", e.Provider, ExchangeKinds)
	oneOf(c, "api.marketData.source", "Market data source", a.MarketData.Source, MarketSources)
	if e.Provider == "coinbase" {
		if strings.TrimSpace(e.APIKey) == "" {
			c.err("api.exchange.apiKey", "Coinbase API key is required")
		}
		if strings.TrimSpace(e.APISecret) == "" {
			c.err("api.exchange.apiSecret", "Coinbase API secret is required")
		}
	}
	c.intRange("api.exchange.timeout", "Exchange timeout", e.Timeout, 1000, 120000, " ms")
	c.intRange("api.exchange.rateLimit", "Rate limit", e.RateLimit, 1, 100, " requests/sec")

	ai := a.AI
	oneOf(c, "api.ai.provider", "AI provider", ai.Provider, AIKinds)
	if ai.Provider == "replicate" && strings.TrimSpace(ai.APIToken) == "" {
		c.warn("api.ai.apiToken", "Replicate API token is recommended for AI features")
	}
	if ai.Provider == "openai" {
		if u, err := url.Parse(ai.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.err("api.ai.baseUrl", "AI endpoint base URL must be an http(s) URL")
		}
	}
	// The model is free text for an OpenAI-compatible endpoint; Replicate runs
	// the spec's options (ai.ReplicateModels maps them to real models).
	if strings.TrimSpace(ai.Model) == "" {
		c.err("api.ai.model", "AI model is required")
	} else if ai.Provider == "replicate" {
		oneOf(c, "api.ai.model", "AI model", ai.Model, AIModels)
	}
	c.intRange("api.ai.timeout", "AI provider timeout", ai.Timeout, 10000, 300000, " ms")
	if ai.BacktestMaxModelCalls != 0 { // 0 (a document from before the setting): the default, 2,000
		c.intRange("api.ai.backtestMaxModelCalls", "Model calls per backtest", ai.BacktestMaxModelCalls, 1, 100000, " calls")
	}
	for model, p := range ai.Pricing {
		field := "api.ai.pricing." + model
		switch {
		case strings.TrimSpace(model) == "":
			c.err("api.ai.pricing", "A price needs a model name")
		case p.Input.IsNegative() || p.Output.IsNegative():
			c.err(field, "Prices per million tokens cannot be negative")
		}
	}
	for provider, b := range ai.MonthlyBudget {
		field := "api.ai.monthlyBudget." + provider
		if !slices.Contains(AIKinds, provider) {
			c.err(field, "Monthly budget names an unknown AI provider: "+provider)
		} else if b.IsNegative() {
			c.err(field, "Monthly budget cannot be negative")
		}
	}
}

func validateTrading(c *checker, t Trading) {
	d := t.DefaultParameters
	if d.Quantity < 0.001 {
		c.err("trading.defaultParameters.quantity", "Default quantity must be at least 0.001")
	} else {
		c.step("trading.defaultParameters.quantity", "Default quantity", d.Quantity, 0.001)
	}
	oneOf(c, "trading.defaultParameters.orderType", "Order type", d.OrderType, OrderTypes)

	r := t.RiskManagement
	p := "trading.riskManagement."
	c.percentRange(p+"maxPositionSize", "Max position size", r.MaxPositionSize, 0.01, 1)
	c.percentRange(p+"dailyLossLimit", "Daily loss limit", r.DailyLossLimit, 0.01, 0.5)
	c.percentRange(p+"maxDrawdown", "Max drawdown", r.MaxDrawdown, 0.05, 0.5)
	c.percentRange(p+"stopLossPercent", "Stop loss", r.StopLossPercent, 0.005, 0.1)
	c.percentStep(p+"stopLossPercent", "Stop loss", r.StopLossPercent, 0.005)
	c.percentRange(p+"takeProfitPercent", "Take profit", r.TakeProfitPercent, 0.005, 1)
	c.intRange(p+"maxOpenPositions", "Max open positions", r.MaxOpenPositions, 1, 100, "")
	c.intRange(p+"maxDailyTrades", "Max daily trades", r.MaxDailyTrades, 1, 1000, "")
	c.floatRange(p+"minTradeAmount", "Min trade amount", r.MinTradeAmount, 1, 1000)
	c.floatRange(p+"maxTradeAmount", "Max trade amount", r.MaxTradeAmount, 100, 1000000)
	if r.MinTradeAmount > r.MaxTradeAmount {
		c.err(p+"minTradeAmount", "Min trade amount must not exceed max trade amount")
	}
	c.floatRange(p+"maxLeverage", "Max leverage", r.MaxLeverage, 1, 10)
	c.step(p+"maxLeverage", "Max leverage", r.MaxLeverage, 0.1)
	if r.MaxPositionSize > 0.5 {
		c.warn(p+"maxPositionSize", "Position size above 50% is high risk")
	}
	if r.DailyLossLimit > 0.2 {
		c.warn(p+"dailyLossLimit", "Daily loss limit above 20% is high risk")
	}
	validatePromotion(c, t.Promotion)
}

func validatePromotion(c *checker, pr Promotion) {
	p := "trading.promotion."
	lo, hi := decimal.NewFromInt(100), decimal.NewFromInt(10_000_000)
	if pr.PaperStartingUSD.LessThan(lo) || pr.PaperStartingUSD.GreaterThan(hi) {
		c.err(p+"paperStartingUSD", "Paper starting balance must be between 100 and 10000000 USD")
	}
	c.intRange(p+"paper.minOOSTrades", "Minimum out-of-sample trades", pr.Paper.MinOOSTrades, 0, 100000, "")
	c.floatRange(p+"paper.minOOSSharpe", "Minimum out-of-sample Sharpe ratio", pr.Paper.MinOOSSharpe, -10, 10)
	c.intRange(p+"live.minPaperDays", "Minimum days on paper", pr.Live.MinPaperDays, 0, 365, "days")
	c.intRange(p+"live.minPaperTrades", "Minimum trades on paper", pr.Live.MinPaperTrades, 0, 100000, "")
}

func validateUI(c *checker, u UI) {
	oneOf(c, "ui.theme.mode", "Theme", u.Theme.Mode, ThemeModes)
	oneOf(c, "ui.theme.fontSize", "Font size", u.Theme.FontSize, FontSizes)
	c.intRange("ui.dashboard.refreshInterval", "Refresh interval", u.Dashboard.RefreshInterval, 1000, 30000, " ms")
	oneOf(c, "ui.charts.type", "Chart type", u.Charts.Type, ChartTypes)
	oneOf(c, "ui.charts.timeframe", "Timeframe", u.Charts.Timeframe, Timeframes)
	oneOf(c, "ui.display.currency", "Currency", u.Display.Currency, Currencies)
	if u.Display.Currency == "EUR" || u.Display.Currency == "GBP" {
		c.warn("ui.display.currency", u.Display.Currency+" needs an exchange-rate source this build does not have; amounts are shown in USD")
	}
	oneOf(c, "ui.display.decimalPlaces", "Decimal places", u.Display.DecimalPlaces, DecimalChoices)
	oneOf(c, "ui.display.thousandsSeparator", "Thousands separator", u.Display.ThousandsSeparator, Separators)
	oneOf(c, "ui.display.dateFormat", "Date format", u.Display.DateFormat, DateFormats)
	oneOf(c, "ui.display.timeFormat", "Time format", u.Display.TimeFormat, TimeFormats)
	oneOf(c, "ui.language.timezone", "Timezone", u.Language.Timezone, Timezones)
}

const (
	minute = 60_000
	hour   = 60 * minute
	day    = 24 * hour
)

func validateSystem(c *checker, s System) {
	c.intRange("system.monitoring.healthCheckInterval", "Health check interval", s.Monitoring.HealthCheckInterval, 10000, 300000, " ms")
	oneOf(c, "system.logging.level", "Log level", s.Logging.Level, LogLevels)
	c.intRange("system.logging.logRetention", "Log retention", s.Logging.LogRetention, 1, 365, " days")
	c.intRange("system.backup.backupInterval", "Backup interval", s.Backup.BackupInterval, hour, 7*day, " ms (1 hour to 7 days)")
	c.intRange("system.backup.backupRetention", "Backup retention", s.Backup.BackupRetention, 1, 365, "")
	c.intRange("system.security.sessionTimeout", "Session timeout", s.Security.SessionTimeout, 5*minute, day, " ms (5 minutes to 24 hours)")
	c.intRange("system.performance.cacheTimeout", "Cache timeout", s.Performance.CacheTimeout, minute, hour, " ms (1 minute to 1 hour)")
	c.intRange("system.performance.maxConcurrentRequests", "Max concurrent requests", s.Performance.MaxConcurrentRequests, 1, 100, "")
	c.intRange("system.performance.requestTimeout", "Request timeout", s.Performance.RequestTimeout, 5000, 120000, " ms")
	validateNotifyServers(c, s.Notifications)
	validateRetention(c, s.Retention, s.Quotas)
}

func validateRetention(c *checker, r Retention, q Quotas) {
	for _, f := range []struct {
		key, label string
		v          int
	}{{"backtests", "Backtest retention", r.Backtests}, {"sweeps", "Sweep retention", r.Sweeps}, {"jobs", "Job retention", r.Jobs},
		{"notifications", "Notification retention", r.Notifications}, {"aiDecisions", "AI decision retention", r.AIDecisions},
		{"auditLog", "Audit log retention", r.AuditLog}} {
		c.intRange("system.retention."+f.key, f.label, f.v, 0, 3650, " days (0 keeps everything)")
	}
	c.intRange("system.quotas.storedBacktests", "Stored backtests per user", q.StoredBacktests, 1, 10000, "")
	c.intRange("system.quotas.activeBacktests", "Queued or running backtests per user", q.ActiveBacktests, 1, 100, "")
	c.intRange("system.quotas.activeSweeps", "Queued or running sweeps per user", q.ActiveSweeps, 1, 20, "")
	c.intRange("system.quotas.requestBacktests", "Quick backtests kept per user", q.RequestBacktests, 1, 100, "")
	c.intRange("system.quotas.minFreeDiskMB", "Minimum free disk space", q.MinFreeDiskMB, 0, 1_000_000, " MB")
}

// digestTime is HH:MM on a 24-hour clock.
var digestTime = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

func validateNotifyServers(c *checker, n NotifyServers) {
	c.intRange("system.notifications.smtpPort", "SMTP port", n.SMTPPort, 1, 65535, "")
	oneOf(c, "system.notifications.smtpSecurity", "SMTP security", n.SMTPSecurity, SMTPSecurities)
	if n.SMTPHost != "" && (strings.ContainsAny(n.SMTPHost, " /:@") || len(n.SMTPHost) > 253) {
		c.err("system.notifications.smtpHost", "SMTP host is a host name or IP address, without a port or scheme")
	}
	if n.SMTPHost != "" {
		if a, err := mail.ParseAddress(n.SMTPFrom); err != nil || a.Name != "" && a.Address == "" {
			c.err("system.notifications.smtpFrom", "From address is required for email, e.g. kestrel@example.com")
		}
	}
	if !digestTime.MatchString(n.DigestTime) {
		c.err("system.notifications.digestTime", "Digest time is HH:MM (UTC), e.g. 07:30")
	}
	if u := n.TelegramAPIURL; u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://127.0.0.1") && !strings.HasPrefix(u, "http://localhost") {
		c.err("system.notifications.telegramApiUrl", "Telegram API URL must be https:// (http:// only to a loopback address)")
	}
}
