package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/settings"
)

// settingsEffects tells the Settings screen which keys the running system
// applies ("applied") and which it stores without acting on yet ("stored").
// Every key is applied: a setting that does nothing is not offered (a
// test walks the whole document).
var settingsEffects = map[string]string{
	"api.exchange.provider": "applied", // switches the exchange and the live market (app/venue.go)
	"api.marketData.source": "applied", // the paper venue's prices: the replay or Coinbase's live market (app/venue.go)
	// Every risk key is read by the gateway (trading.PolicyFrom) and each
	// has a test that shows its effect (risk/, trading/rules_test.go).
	"trading.riskManagement.maxPositionSize":   "applied",
	"trading.riskManagement.dailyLossLimit":    "applied",
	"trading.riskManagement.maxDrawdown":       "applied",
	"trading.riskManagement.stopLossPercent":   "applied",
	"trading.riskManagement.takeProfitPercent": "applied",
	"trading.riskManagement.maxOpenPositions":  "applied",
	"trading.riskManagement.maxDailyTrades":    "applied",
	"trading.riskManagement.minTradeAmount":    "applied",
	"trading.riskManagement.maxTradeAmount":    "applied",
	"trading.riskManagement.maxLeverage":       "applied", // capped at 1x: a spot account cannot borrow
	"trading.automation.enableStopLoss":        "applied",
	"trading.automation.enableTakeProfit":      "applied",
	"trading.automation.trailingStopLoss":      "applied",
	"trading.automation.emergencyStop":         "applied",
	"trading.automation.autoTrading":           "applied",
	"trading.automation.confirmTrades":         "applied",
	"trading.defaultParameters":                "applied",
	// Promotion gates are read at each promotion (package promotion); the
	// starting balance funds the next paper stage.
	"trading.promotion.paperStartingUSD":         "applied",
	"trading.promotion.paper.requireWalkForward": "applied",
	"trading.promotion.paper.minOOSTrades":       "applied",
	"trading.promotion.paper.minOOSSharpe":       "applied",
	"trading.promotion.live.minPaperDays":        "applied",
	"trading.promotion.live.minPaperTrades":      "applied",
	"ui":                                         "applied",
	"ui.theme.mode":                              "applied",
	"ui.theme.fontSize":                          "applied",
	"ui.dashboard.refreshInterval":               "applied",
	"ui.dashboard.showMetrics":                   "applied",
	"ui.dashboard.showCharts":                    "applied",
	"ui.dashboard.showRecentTrades":              "applied",
	"ui.display":                                 "applied",
	"ui.language.timezone":                       "applied",
	"ui.notifications.trades":                    "applied",
	"ui.charts.type":                             "applied",
	"ui.charts.timeframe":                        "applied",
	"system.logging.level":                       "applied",
	"system.security.sessionTimeout":             "applied",
	"system.security.enableTwoFactor":            "applied", // operators must sign in with TOTP
	"system.monitoring":                          "applied",
	"system.logging.logRetention":                "applied",
	"system.backup":                              "applied",
	"system.notifications":                       "applied", // email channels' mail server, the digest's time, the Telegram API URL
	"system.notifications.digestTime":            "applied",
	"system.notifications.smtpFrom":              "applied",
	"system.notifications.smtpHost":              "applied",
	"system.notifications.allowLoopbackTargets":  "applied",
	"system.notifications.smtpPassword":          "applied",
	"system.notifications.smtpPort":              "applied",
	"system.notifications.smtpSecurity":          "applied",
	"system.notifications.smtpUser":              "applied",
	"system.notifications.telegramApiUrl":        "applied",
	"system.performance":                         "applied",
	// Retention is pruned hourly (ops/retention); quotas are read at each
	// submit, the disk threshold at each submit and every minute (ops/diskwatch).
	"system.retention":                         "applied",
	"system.retention.backtests":               "applied",
	"system.retention.sweeps":                  "applied",
	"system.retention.jobs":                    "applied",
	"system.retention.notifications":           "applied",
	"system.retention.aiDecisions":             "applied",
	"system.retention.auditLog":                "applied",
	"system.quotas":                            "applied",
	"system.quotas.storedBacktests":            "applied",
	"system.quotas.activeBacktests":            "applied",
	"system.quotas.activeSweeps":               "applied",
	"system.quotas.requestBacktests":           "applied",
	"system.quotas.minFreeDiskMB":              "applied",
	"api.exchange.timeout":                     "applied", // Coinbase: per-request timeout
	"api.exchange.rateLimit":                   "applied", // Coinbase: requests per second
	"api.ai":                                   "applied",
	"api.ai.apiToken":                          "applied",
	"api.ai.baseUrl":                           "applied",
	"api.ai.model":                             "applied",
	"api.ai.provider":                          "applied",
	"api.ai.timeout":                           "applied",
	"api.ai.backtestMaxModelCalls":             "applied", // the cap of a live-model backtest's model calls
	"api.exchange.apiKey":                      "applied",
	"api.exchange.apiSecret":                   "applied",
	"api.exchange.sandbox":                     "applied", // Coinbase: the sandbox host for accounts and orders
	"system.backup.backupInterval":             "applied",
	"system.backup.backupRetention":            "applied",
	"system.backup.enableAutoBackup":           "applied",
	"system.monitoring.enableHealthChecks":     "applied",
	"system.monitoring.healthCheckInterval":    "applied",
	"system.performance.cacheTimeout":          "applied",
	"system.performance.enableCaching":         "applied",
	"system.performance.enableCompression":     "applied",
	"system.performance.maxConcurrentRequests": "applied",
	"system.performance.requestTimeout":        "applied",
	"trading.defaultParameters.orderType":      "applied",
	"trading.defaultParameters.quantity":       "applied",
	"ui.display.currency":                      "applied",
	"ui.display.dateFormat":                    "applied",
	"ui.display.decimalPlaces":                 "applied",
	"ui.display.thousandsSeparator":            "applied",
	"ui.display.timeFormat":                    "applied",
	"ui.notifications.alerts":                  "applied", // notify: gates that group of events (or email channels) for the user
	"ui.notifications.email":                   "applied", // notify: gates that group of events (or email channels) for the user
	"ui.notifications.push":                    "applied", // notify: gates the user's web push channels
	"ui.notifications.system":                  "applied", // notify: gates that group of events (or email channels) for the user
}

// openSettings loads the settings and applies them to the running system.
func (a *App) openSettings(ctx context.Context, clock domain.Clock) error {
	key, err := settings.LoadOrCreateKey(a.cfg.SecretKey, a.cfg.DataDir)
	if err != nil {
		return fmt.Errorf("secret key: %w", err)
	}
	sealer, err := settings.NewSealer(key)
	if err != nil {
		return err
	}
	a.Auth.SetSealer(sealer)
	if a.Settings, err = settings.NewService(ctx, a.Store, sealer, clock); err != nil {
		return err
	}
	a.openNotify(sealer, clock)
	if p := a.Settings.Platform(); p.LastUpdated != "" {
		// Saved settings win over the process flags; never-saved defaults do not.
		a.applySettings(p)
	}
	a.Settings.OnChange(func(ctx context.Context, old, next settings.Settings, by domain.User) {
		a.applySettings(next)
		slog.Info("settings changed", "by", by.Email)
	})
	return nil
}

// applySettings makes the platform settings take effect.
func (a *App) applySettings(s settings.Settings) {
	a.Auth.SetSessionTTL(time.Duration(s.System.Security.SessionTimeout) * time.Millisecond)
	a.Auth.SetRequireOperatorTOTP(s.System.Security.EnableTwoFactor)
	if a.cfg.LogLevelVar != nil {
		if l, err := ParseLogLevel(s.System.Logging.Level); err == nil {
			a.cfg.LogLevelVar.Set(l)
		}
	}
}
