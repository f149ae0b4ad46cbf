package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"kestrel/settings"
)

// leaves lists the dotted keys of every leaf value in a JSON object.
func leaves(prefix string, v any, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		*out = append(*out, prefix)
		return
	}
	for k, x := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		leaves(key, x, out)
	}
}

// effectTests names, for each setting labelled "applied", the tests that
// show it taking effect: "dir.TestName" for a Go test in that directory of
// the repository, "web/src/file.test.ts: title" for a test of the web app.
// TestEverySettingHasAnExplicitEffect checks that each one exists.
var effectTests = map[string][]string{
	"api.exchange.provider":        {"app.TestVenueSwitchStartsTheRiskStateAfresh", "app.TestCoinbaseTradingThroughTheApp"},
	"api.marketData.source":        {"app.TestPaperTradingOnLiveCoinbasePrices", "app.TestMarketDataImportedOnceAndReplayLabelled"},
	"api.exchange.apiKey":          {"app.TestCoinbaseTradingThroughTheApp", "app.TestCoinbaseKeyKindsConnect"},
	"api.exchange.apiSecret":       {"app.TestCoinbaseTradingThroughTheApp", "app.TestCoinbaseKeyKindsConnect"},
	"api.exchange.timeout":         {"exchange/coinbase.TestConfigTimeoutBoundsEachRequest", "app.TestCoinbaseConfigFromTheExchangeSettings", "app.TestPaperLiveFeedFollowsTheExchangeTimeout"},
	"api.exchange.rateLimit":       {"exchange/coinbase.TestConfigRateLimitSpacesRequests", "app.TestCoinbaseConfigFromTheExchangeSettings", "venue.TestSelected"},
	"api.exchange.sandbox":         {"exchange/coinbase.TestSandboxSwitchPicksTheHost", "app.TestCoinbaseConfigFromTheExchangeSettings"},
	"api.ai.provider":              {"app.TestBacktestAIModes", "app.TestTestAI"},
	"api.ai.model":                 {"app.TestShadowModelsThroughTheAPI", "ai.TestOpenAIRequest"},
	"api.ai.baseUrl":               {"ai.TestOpenAIConfig", "app.TestTestAI"},
	"api.ai.apiToken":              {"ai.TestOpenAIWithoutToken", "ai.TestOpenAIConfig"},
	"api.ai.timeout":               {"ai.TestReplicatePollingStopsAtTheTimeout"},
	"api.ai.backtestMaxModelCalls": {"app.TestLiveBacktestGuards"},

	"trading.riskManagement.maxPositionSize":   {"risk.TestCheck", "app.TestEveryRiskRefusal"},
	"trading.riskManagement.dailyLossLimit":    {"app.TestEveryRiskRefusal", "backtest.TestDailyLossDayStartsAtMidnight"},
	"trading.riskManagement.maxDrawdown":       {"app.TestEveryRiskRefusal", "backtest.TestHaltedByMaxDrawdown"},
	"trading.riskManagement.stopLossPercent":   {"trading.TestProtectiveOrders", "backtest.TestStopLossLedger"},
	"trading.riskManagement.takeProfitPercent": {"trading.TestProtectiveOrders", "backtest.TestStopBeforeTakeProfitInOneCandle"},
	"trading.riskManagement.maxOpenPositions":  {"risk.TestCheck", "app.TestEveryRiskRefusal"},
	"trading.riskManagement.maxDailyTrades":    {"app.TestEveryRiskRefusal", "backtest.TestDailyTradesCountProtectiveOrders"},
	"trading.riskManagement.minTradeAmount":    {"backtest.TestLedgerSizeIsBuyQuantity"},
	"trading.riskManagement.maxTradeAmount":    {"app.TestRiskLimitFromSettings", "trading.TestModifyIsANewOrderToTheRiskCheck"},
	"trading.riskManagement.maxLeverage":       {"risk.TestCheck"},
	"trading.automation.enableStopLoss":        {"app.TestPortfolioPositionsListTheirProtection", "trading.TestProtectiveOrders"},
	"trading.automation.enableTakeProfit":      {"app.TestPortfolioPositionsListTheirProtection", "trading.TestProtectiveOrders"},
	"trading.automation.trailingStopLoss":      {"trading.TestTrailingProtectiveStop", "app.TestCoinbaseTrailingProtectiveStop"},
	"trading.automation.emergencyStop":         {"app.TestRiskLimitFromSettings", "trading.TestEmergencyStopHaltsNewRiskNotExits"},
	"trading.automation.autoTrading":           {"strategy.TestNotExecutedSaysWhy"},
	"trading.automation.confirmTrades":         {"web/src/features/trading/TradingForm.test.tsx: prefills the default quantity, confirms in a dialog with total and fee, and sends the spec payload"},
	"trading.defaultParameters.orderType":      {"web/src/features/trading/TradingForm.test.tsx: prefills the default quantity, confirms in a dialog with total and fee, and sends the spec payload"},
	"trading.defaultParameters.quantity":       {"web/src/features/trading/TradingForm.test.tsx: prefills the default quantity, confirms in a dialog with total and fee, and sends the spec payload"},

	"trading.promotion.paperStartingUSD":         {"promotion.TestPaperGates", "app.TestPaperStageResumesAfterRestart"},
	"trading.promotion.paper.requireWalkForward": {"app.TestPaperStageResumesAfterRestart"},
	"trading.promotion.paper.minOOSTrades":       {"promotion.TestPaperGates"},
	"trading.promotion.paper.minOOSSharpe":       {"promotion.TestPaperGates"},
	"trading.promotion.live.minPaperDays":        {"app.TestPromotedVersionTradesInItsOwnPaperAccount"},
	"trading.promotion.live.minPaperTrades":      {"app.TestPromotedVersionTradesInItsOwnPaperAccount"},

	"ui.theme.mode":                 {"web/src/lib/theme.test.ts: applies light and dark as chosen, whatever the system says"},
	"ui.theme.fontSize":             {"web/src/lib/prefs.test.tsx: sets the font size of the whole app from the theme settings"},
	"ui.dashboard.refreshInterval":  {"web/src/features/trading/dashboardSettings.test.tsx: refreshes every card at the dashboard refresh interval"},
	"ui.dashboard.showMetrics":      {"web/src/features/trading/dashboardSettings.test.tsx: shows or hides the metrics, the chart and the recent trades as the dashboard settings say"},
	"ui.dashboard.showCharts":       {"web/src/features/trading/dashboardSettings.test.tsx: shows or hides the metrics, the chart and the recent trades as the dashboard settings say"},
	"ui.dashboard.showRecentTrades": {"web/src/features/trading/dashboardSettings.test.tsx: shows or hides the metrics, the chart and the recent trades as the dashboard settings say"},
	"ui.charts.type":                {"web/src/features/trading/dashboardSettings.test.tsx: draws the chart type the settings choose: candlestick, line or area"},
	"ui.display.currency":           {"web/src/lib/format.test.ts: converts account amounts to BTC or ETH at the live price"},
	"ui.display.dateFormat":         {"web/src/lib/format.test.ts: formats date and time as chosen, in the chosen time zone"},
	"ui.display.timeFormat":         {"web/src/lib/format.test.ts: formats date and time as chosen, in the chosen time zone"},
	"ui.language.timezone":          {"web/src/lib/format.test.ts: formats date and time as chosen, in the chosen time zone"},
	"ui.display.decimalPlaces":      {"web/src/lib/format.test.ts: groups numbers with the chosen separator and decimal places"},
	"ui.display.thousandsSeparator": {"web/src/lib/format.test.ts: groups numbers with the chosen separator and decimal places"},
	"ui.charts.timeframe":           {"web/src/features/trading/chartModel.test.ts: falls back to BTC-USD (when listed) and the settings timeframe for unknown values"},
	"ui.notifications.trades":       {"notify.TestNotificationSwitchesDriveRouting"},
	"ui.notifications.alerts":       {"notify.TestNotificationSwitchesDriveRouting"},
	"ui.notifications.system":       {"notify.TestNotificationSwitchesDriveRouting"},
	"ui.notifications.email":        {"notify.TestNotificationSwitchesDriveRouting"},
	"ui.notifications.push":         {"notify.TestPushSwitchOffFailsAtOnce"},

	"system.logging.level":                      {"app.TestLogLevelFromSettings"},
	"system.logging.logRetention":               {"ops/retention.TestPruneCutoffs"},
	"system.security.sessionTimeout":            {"app.TestSessionTimeoutFromSettings", "auth.TestSessionExpiresAndSlides"},
	"system.security.enableTwoFactor":           {"app.TestOperatorTOTPRequiredBySetting"},
	"system.monitoring.enableHealthChecks":      {"ops/healthcheck.TestRunFollowsTheSwitch"},
	"system.monitoring.healthCheckInterval":     {"ops/healthcheck.TestInterval"},
	"system.backup.backupInterval":              {"ops/backup.TestDueFollowsTheSwitchAndTheInterval"},
	"system.backup.enableAutoBackup":            {"ops/backup.TestDueFollowsTheSwitchAndTheInterval"},
	"system.backup.backupRetention":             {"ops/backup.TestTakeKeepsTheNewest"},
	"system.notifications.digestTime":           {"notify.TestDailyDigestArrivesByEmail", "app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpFrom":             {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpHost":             {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpPort":             {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpUser":             {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpPassword":         {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.smtpSecurity":         {"app.TestDigestFromTheAccountAndMailSettings"},
	"system.notifications.allowLoopbackTargets": {"notify.TestLoopbackTargetsOnlyWhenAllowed"},
	"system.notifications.telegramApiUrl":       {"app.TestTelegramGetsTheFillAndTheEmergencyStop", "httpapi.TestTelegramAPIURLMovesOnlyWithThePassword"},
	"system.performance.enableCaching":          {"app.TestStaticCachingFromSettings", "httpapi.TestTuningCachesStaticFiles"},
	"system.performance.cacheTimeout":           {"app.TestStaticCachingFromSettings", "httpapi.TestTuningCachesStaticFiles"},
	"system.performance.enableCompression":      {"httpapi.TestTuningCompresses"},
	"system.performance.maxConcurrentRequests":  {"httpapi.TestTuningLimitsConcurrencyAndTimesOut", "app.TestSlowClientsDoNotDelayTheEmergencyStop"},
	"system.performance.requestTimeout":         {"httpapi.TestTuningLimitsConcurrencyAndTimesOut"},
	"system.retention.backtests":                {"ops/retention.TestPruneGrowthRetentions"},
	"system.retention.sweeps":                   {"ops/retention.TestPruneGrowthRetentions"},
	"system.retention.jobs":                     {"ops/retention.TestPruneGrowthRetentions"},
	"system.retention.notifications":            {"ops/retention.TestPruneGrowthRetentions"},
	"system.retention.aiDecisions":              {"ops/retention.TestPruneGrowthRetentions"},
	"system.retention.auditLog":                 {"ops/retention.TestPruneGrowthRetentions"},
	"system.quotas.storedBacktests":             {"app.TestStoredBacktestQuota"},
	"system.quotas.activeBacktests":             {"app.TestActiveJobQuotas"},
	"system.quotas.activeSweeps":                {"app.TestActiveJobQuotas"},
	"system.quotas.requestBacktests":            {"app.TestSyncBacktestsKeepABoundedHistory"},
	"system.quotas.minFreeDiskMB":               {"ops/diskwatch.TestLowDiskRefusesWorkAndAlerts", "app.TestLowDiskRefusesNewWorkNotOrders"},
}

// Every leaf setting says, by its own key, whether it is applied or stored;
// every applied one names the tests that show its effect (effectTests), and
// those tests exist. A setting labelled applied that nothing shows applied
// fails here: it gains a test or is labelled stored.
func TestEverySettingHasAnExplicitEffect(t *testing.T) {
	b, _ := json.Marshal(settings.Defaults())
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var keys []string
	leaves("", v, &keys)
	sort.Strings(keys)
	leaf := map[string]bool{}
	for _, k := range keys {
		if k == "lastUpdated" || k == "version" { // metadata, not settings
			continue
		}
		leaf[k] = true
		tests := effectTests[k]
		switch settingsEffects[k] {
		case "applied":
			if len(tests) == 0 {
				t.Errorf("%s is labelled applied but no test shows its effect: name one in effectTests", k)
			}
		case "stored":
			if len(tests) > 0 {
				t.Errorf("%s is labelled stored but has effects listed", k)
			}
		default:
			t.Errorf("%s has no explicit effect (applied or stored)", k)
		}
		for _, ref := range tests {
			if err := testExists(ref); err != "" {
				t.Errorf("%s: %s", k, err)
			}
		}
	}
	for k := range effectTests {
		if !leaf[k] {
			t.Errorf("effectTests names %s, which is no setting", k)
		}
	}
}

// testExists reports why ref (see effectTests) names no test, or "".
func testExists(ref string) string {
	root := filepath.Join("..")
	if file, title, ok := strings.Cut(ref, ": "); ok { // a web test
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return ref + ": " + err.Error()
		}
		for _, q := range []string{"'", "\"", "`"} {
			if strings.Contains(string(src), "it("+q+title+q) || strings.Contains(string(src), "test("+q+title+q) {
				return ""
			}
		}
		return ref + ": no such test in " + file
	}
	i := strings.LastIndex(ref, ".")
	if i < 0 {
		return ref + ": want dir.TestName"
	}
	dir, name := ref[:i], ref[i+1:]
	files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*_test.go"))
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(name) + `\(t \*testing\.T\)`)
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil && decl.Match(src) {
			return ""
		}
	}
	return ref + ": no such test in " + dir
}
