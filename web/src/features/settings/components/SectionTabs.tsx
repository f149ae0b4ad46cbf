import { BOUNDS } from '../model';
import type { SettingsOptions } from '../types';
import { Group, NumberInput, SelectInput, TextInput, Toggle, toChoices } from './controls';

const ORDER_TYPE_LABELS: Record<string, string> = { market: 'Market', limit: 'Limit' };
const THEME_LABELS: Record<string, string> = { light: 'Light', dark: 'Dark', auto: 'Auto (follows the system)' };
// With '.' grouping thousands the decimal mark becomes ',' (lib/format): the labels show both.
const SEPARATOR_LABELS: Record<string, string> = { ',': 'Comma (1,000.50)', '.': 'Period (1.000,50)', ' ': 'Space (1 000.50)' };
const TIME_LABELS: Record<string, string> = { '12h': '12-hour', '24h': '24-hour' };
/** Amounts are USD (every market's quote currency) and no exchange-rate source exists offline: EUR and GBP would need one. */
export const CURRENCY_HINT = 'Balances and prices are in US dollars. BTC and ETH convert them at the live price; EUR and GBP show them in USD ($): this build has no exchange-rate source to convert with.';
export const LEVERAGE_NOTE = 'Spot account: values above 1 cannot be used (no borrowing); exposure is capped at 1x equity.';

/** The trading section; its fields always render because the section falls back to defaults. */
export function TradingTab({ options }: { options: SettingsOptions }) {
  return (
    <div className="space-y-6">
      <Group title="Default parameters" effectKey="trading.defaultParameters">
        <NumberInput path="trading.defaultParameters.quantity" label="Default quantity" bound={BOUNDS.quantity} />
        <SelectInput path="trading.defaultParameters.orderType" label="Order type" choices={toChoices(options.orderTypes, ORDER_TYPE_LABELS)} />
      </Group>
      <Group title="Risk management" effectKey="trading.riskManagement">
        <NumberInput path="trading.riskManagement.maxPositionSize" label="Max position size" bound={BOUNDS.maxPositionSize} hint="Percent of portfolio value, 1–100" />
        <NumberInput path="trading.riskManagement.dailyLossLimit" label="Daily loss limit" bound={BOUNDS.dailyLossLimit} hint="Percent of portfolio value, 1–50" />
        <NumberInput path="trading.riskManagement.maxDrawdown" label="Max drawdown" bound={BOUNDS.maxDrawdown} hint="Percent of portfolio value, 5–50" />
        <NumberInput path="trading.riskManagement.stopLossPercent" label="Stop loss" bound={BOUNDS.stopLossPercent} hint="Percent of entry price, 0.5–10" />
        <NumberInput
          path="trading.riskManagement.takeProfitPercent"
          label="Take profit"
          bound={BOUNDS.takeProfitPercent}
          hint="Percent above the entry price, 0.5–100; used when take profit is enabled (beyond the spec)"
        />
        <NumberInput path="trading.riskManagement.maxOpenPositions" label="Max open positions" bound={BOUNDS.maxOpenPositions} />
        <NumberInput path="trading.riskManagement.maxDailyTrades" label="Max daily trades" bound={BOUNDS.maxDailyTrades} />
        <NumberInput path="trading.riskManagement.minTradeAmount" label="Min trade amount" bound={BOUNDS.minTradeAmount} />
        <NumberInput path="trading.riskManagement.maxTradeAmount" label="Max trade amount" bound={BOUNDS.maxTradeAmount} />
        <NumberInput path="trading.riskManagement.maxLeverage" label="Max leverage" bound={BOUNDS.maxLeverage} hint={LEVERAGE_NOTE} />
      </Group>
      <Group title="Automation" effectKey="trading.automation">
        <Toggle path="trading.automation.autoTrading" label="Auto trading" />
        <Toggle path="trading.automation.emergencyStop" label="Emergency stop" hint="The same switch as the Stop button" />
        <Toggle path="trading.automation.confirmTrades" label="Confirm trades" />
        <Toggle path="trading.automation.enableStopLoss" label="Enable stop loss" />
        <Toggle path="trading.automation.enableTakeProfit" label="Enable take profit" />
        <Toggle path="trading.automation.trailingStopLoss" label="Trailing stop loss" hint="The protective stop-loss follows each new high at the stop-loss percent (live and in backtests)" />
      </Group>
      <Group title="Promotion" effectKey="trading.promotion">
        <TextInput path="trading.promotion.paperStartingUSD" label="Paper account starting balance (USD)" hint="Funds each promoted version's own paper account, 100–10,000,000" />
        <Toggle path="trading.promotion.paper.requireWalkForward" label="Require a walk-forward sweep to go to paper" hint="Checked against the newest finished walk-forward sweep of the version or of the version it was derived from" />
        <NumberInput path="trading.promotion.paper.minOOSTrades" label="Minimum out-of-sample trades" bound={BOUNDS.minOOSTrades} />
        <NumberInput path="trading.promotion.paper.minOOSSharpe" label="Minimum out-of-sample Sharpe ratio" bound={BOUNDS.minOOSSharpe} hint="The mean of the folds' out-of-sample Sharpe ratios" />
        <NumberInput path="trading.promotion.live.minPaperDays" label="Minimum days on paper" bound={BOUNDS.minPaperDays} />
        <NumberInput path="trading.promotion.live.minPaperTrades" label="Minimum trades on paper" bound={BOUNDS.minPaperTrades} hint="Orders filled in the version's paper account; going live also needs an operator's approval" />
      </Group>
    </div>
  );
}

export function UiTab({ options }: { options: SettingsOptions }) {
  return (
    <div className="space-y-6">
      <Group title="Theme" effectKey="ui.theme">
        <SelectInput path="ui.theme.mode" label="Theme mode" choices={toChoices(options.themeModes, THEME_LABELS)} />
        <SelectInput path="ui.theme.fontSize" label="Font size" choices={toChoices(options.fontSizes)} />
      </Group>
      <Group title="Dashboard" effectKey="ui.dashboard">
        <NumberInput path="ui.dashboard.refreshInterval" label="Refresh interval" bound={BOUNDS.refreshInterval} />
        <Toggle path="ui.dashboard.showMetrics" label="Show metrics" />
        <Toggle path="ui.dashboard.showCharts" label="Show charts" />
        <Toggle path="ui.dashboard.showRecentTrades" label="Show recent trades" />
      </Group>
      <Group title="Charts" effectKey="ui.charts">
        <SelectInput path="ui.charts.type" label="Chart type" choices={toChoices(options.chartTypes)} />
        <SelectInput path="ui.charts.timeframe" label="Timeframe" choices={toChoices(options.timeframes)} />
      </Group>
      <Group title="Notifications" effectKey="ui.notifications">
        <Toggle path="ui.notifications.trades" label="Trades" hint="Shows a notice for each fill in an open tab; off also stops order events (fills, rejections, stops) to your channels" />
        <Toggle path="ui.notifications.alerts" label="Alerts" hint="Off: no emergency stop, risk, strategy, market-data or exchange events reach your channels (Account → Notifications)" />
        <Toggle path="ui.notifications.system" label="System" hint="Off: no system alerts, finished backtests or daily digest reach your channels" />
        <Toggle path="ui.notifications.email" label="Email" hint="On: your email channels send; off: their messages fail with the reason in the delivery log" />
        <Toggle path="ui.notifications.push" label="Push" hint="On: your browser push channels send (Enable browser notifications in Account → Notifications turns it on); off: their messages fail with the reason in the delivery log" />
      </Group>
      <Group title="Display" effectKey="ui.display">
        <SelectInput path="ui.display.currency" label="Currency" choices={toChoices(options.currencies)} hint={CURRENCY_HINT} />
        <SelectInput path="ui.display.decimalPlaces" label="Decimal places" numeric choices={toChoices(options.decimalPlaces)} />
        <SelectInput path="ui.display.thousandsSeparator" label="Thousands separator" choices={toChoices(options.separators, SEPARATOR_LABELS)} />
        <SelectInput path="ui.display.dateFormat" label="Date format" choices={toChoices(options.dateFormats)} />
        <SelectInput path="ui.display.timeFormat" label="Time format" choices={toChoices(options.timeFormats, TIME_LABELS)} />
      </Group>
      <Group title="Language" effectKey="ui.language">
        <SelectInput path="ui.language.timezone" label="Timezone" choices={toChoices(options.timezones)} />
      </Group>
    </div>
  );
}

export function SystemTab({ options }: { options: SettingsOptions }) {
  return (
    <div className="space-y-6">
      <Group title="Monitoring" effectKey="system.monitoring">
        <Toggle path="system.monitoring.enableHealthChecks" label="Enable health checks" />
        <NumberInput path="system.monitoring.healthCheckInterval" label="Health check interval" bound={BOUNDS.healthCheckInterval} />
      </Group>
      <Group title="Logging" effectKey="system.logging">
        <SelectInput path="system.logging.level" label="Log level" choices={toChoices(options.logLevels)} />
        <NumberInput path="system.logging.logRetention" label="Log retention" bound={BOUNDS.logRetention} />
      </Group>
      <Group title="Backup" effectKey="system.backup">
        <Toggle path="system.backup.enableAutoBackup" label="Enable auto backup" />
        <NumberInput path="system.backup.backupInterval" label="Backup interval" bound={BOUNDS.backupInterval} hint="1 hour to 7 days" />
        <NumberInput path="system.backup.backupRetention" label="Backup retention" bound={BOUNDS.backupRetention} />
      </Group>
      <Group title="Security" effectKey="system.security">
        <Toggle
          path="system.security.enableTwoFactor"
          label="Require two-factor authentication for operators"
          hint="Operators without it set up an authenticator app at their next sign-in; anyone can turn it on under Account"
        />
        <NumberInput path="system.security.sessionTimeout" label="Session timeout" bound={BOUNDS.sessionTimeout} hint="5 minutes to 24 hours" />
      </Group>
      <Group title="Performance" effectKey="system.performance">
        <Toggle path="system.performance.enableCaching" label="Enable caching" />
        <NumberInput path="system.performance.cacheTimeout" label="Cache timeout" bound={BOUNDS.cacheTimeout} hint="1 minute to 1 hour" />
        <Toggle path="system.performance.enableCompression" label="Enable compression" />
        <NumberInput path="system.performance.maxConcurrentRequests" label="Max concurrent requests" bound={BOUNDS.maxConcurrentRequests} />
        <NumberInput path="system.performance.requestTimeout" label="Request timeout" bound={BOUNDS.requestTimeout} hint="5 to 120 seconds" />
      </Group>
      <Group title="Retention" effectKey="system.retention">
        {/* Pruned hourly; 0 keeps everything. Nothing queued, running or waiting to be delivered is ever pruned. */}
        <NumberInput
          path="system.retention.backtests"
          label="Backtest reports"
          bound={BOUNDS.retentionDays}
          hint="Keeps each backtest report, and the job that made it, this many days after it ran; 0 keeps them all"
        />
        <NumberInput
          path="system.retention.sweeps"
          label="Parameter sweeps"
          bound={BOUNDS.retentionDays}
          hint="Keeps each finished sweep with its trials this many days after it ended; 0 keeps them all"
        />
        <NumberInput
          path="system.retention.jobs"
          label="Other jobs (market-data backfills)"
          bound={BOUNDS.retentionDays}
          hint="Keeps the record of each finished backfill this many days; the candles it fetched stay; 0 keeps them all"
        />
        <NumberInput
          path="system.retention.notifications"
          label="Notification deliveries"
          bound={BOUNDS.retentionDays}
          hint="Keeps each delivered or failed notification in the delivery log this many days; 0 keeps them all"
        />
        <NumberInput
          path="system.retention.aiDecisions"
          label="AI decisions"
          bound={BOUNDS.retentionDays}
          hint="Keeps each strategy evaluation (decision, reasoning, prompt) and its shadow decisions this many days; older ones leave the decision history and recorded-mode backtests no longer replay them; 0 keeps them all"
        />
        <NumberInput
          path="system.retention.auditLog"
          label="Audit log"
          bound={BOUNDS.retentionDays}
          hint="Keeps each audit log entry this many days; 0 keeps them all"
        />
      </Group>
      <Group title="Quotas and disk space" effectKey="system.quotas">
        <NumberInput
          path="system.quotas.storedBacktests"
          label="Stored backtest reports per user"
          bound={BOUNDS.storedBacktests}
          hint="Reports of backtests run as jobs, counting the ones queued or running; past it a new backtest is refused until retention deletes older reports"
        />
        <NumberInput path="system.quotas.activeBacktests" label="Queued or running backtests per user" bound={BOUNDS.activeBacktests} />
        <NumberInput path="system.quotas.activeSweeps" label="Queued or running sweeps per user" bound={BOUNDS.activeSweeps} />
        <NumberInput
          path="system.quotas.requestBacktests"
          label="Quick backtests kept per user"
          bound={BOUNDS.requestBacktests}
          hint="Backtests run in the request (GET /api/strategy/backtest/{name}) keep only each user's newest reports"
        />
        <NumberInput
          path="system.quotas.minFreeDiskMB"
          label="Minimum free disk space"
          bound={BOUNDS.minFreeDiskMB}
          hint="Below it new backtests, sweeps and backfills are refused and an alert is raised; orders, cancels and the emergency stop always work; 0: no threshold"
        />
      </Group>
      <Group title="Notification servers" effectKey="system.notifications">
        <TextInput path="system.notifications.smtpHost" label="Mail server (SMTP host)" placeholder="smtp.example.com" hint="Email channels send through it; empty turns email off" />
        <NumberInput path="system.notifications.smtpPort" label="SMTP port" bound={BOUNDS.smtpPort} hint="587 for STARTTLS, 465 for TLS" />
        <SelectInput
          path="system.notifications.smtpSecurity"
          label="SMTP security"
          choices={toChoices(['starttls', 'tls'], { starttls: 'STARTTLS (required, never plain text)', tls: 'TLS from the first byte' })}
        />
        <TextInput path="system.notifications.smtpUser" label="SMTP user" autoComplete="off" />
        <TextInput path="system.notifications.smtpPassword" label="SMTP password" type="password" autoComplete="off" hint="Stored encrypted" />
        <TextInput path="system.notifications.smtpFrom" label="From address" placeholder="Kestrel <kestrel@example.com>" />
        <TextInput path="system.notifications.digestTime" label="Daily digest time (UTC)" placeholder="00:00" hint="HH:MM; the digest covers the 24 hours before it" />
        <TextInput
          path="system.notifications.telegramApiUrl"
          label="Telegram Bot API URL"
          placeholder="https://api.telegram.org"
          hint="Empty: Telegram's own; KESTREL_TELEGRAM_API_URL overrides it"
        />
        <Toggle
          path="system.notifications.allowLoopbackTargets"
          label="Allow webhook and push targets on this machine"
          hint="Off: https:// to public addresses only. On: loopback too, plain http:// included (a local relay); any trader's channel may then reach this machine"
        />
      </Group>
    </div>
  );
}
