import { formatCompact, formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, formatShare, formatSignedMoney, moneyAxis } from '@/lib/format';
import type { Coverage, Num, Period, Tab } from './types';

export const PERIODS: Period[] = ['1d', '7d', '30d', '90d', '1y', 'all'];
export const PERIOD_LABELS: Record<Period, string> = { '1d': '1 Day', '7d': '7 Days', '30d': '30 Days', '90d': '90 Days', '1y': '1 Year', all: 'All Time' };
/** Spec section 9: period 30d, 7d for market; symbol BTC-USD. */
export const DEFAULT_PERIOD: Record<Tab, Period> = { trading: '30d', portfolio: '30d', market: '7d', ai: '30d', risk: '30d' };
export const DEFAULT_SYMBOL = 'BTC-USD';

export const TABS: { id: Tab; label: string }[] = [
  { id: 'trading', label: 'Trading Performance' },
  { id: 'portfolio', label: 'Portfolio Analytics' },
  { id: 'market', label: 'Market Analytics' },
  { id: 'ai', label: 'AI Strategy Analytics' },
  { id: 'risk', label: 'Risk Analytics' },
];

/** Spec section 8: the failure message and the fallback of each tab. */
export const FAILED: Record<Tab, string> = {
  trading: 'Failed to fetch performance data',
  portfolio: 'Failed to fetch portfolio data',
  market: 'Failed to fetch market data',
  ai: 'Failed to fetch AI analytics data',
  risk: 'Failed to fetch risk analytics data',
};
export const UNABLE: Record<Tab, string> = {
  trading: 'Unable to load performance data',
  portfolio: 'Unable to load portfolio data',
  market: 'Unable to load market data',
  ai: 'Unable to load AI analytics data',
  risk: 'Unable to load risk analytics data',
};
export const NO_DATA = 'No data available for analysis';
export const DASH = '—';

/** What a figure means, shown on hover (docs/ANALYTICS.md and the analytics issue). */
export const DEFINITIONS = {
  winRate: 'Win rate: winning trades / trades. A trade is a round trip (a position opened from flat and closed back to flat) that closed in the period; it wins when its net P&L after every fee is above 0. The same definition on every screen.',
  totalPnL: "Total P&L: realized P&L of the period's trades (closing fills), net of both sides' fees.",
  tradeSharpe: "Sharpe ratio (per trade): mean / sample standard deviation of each trade's P&L over the cost it sold; not annualised.",
  tradeDrawdown: 'Max drawdown: the largest fall of cumulative realized P&L from its peak, in USD.',
  sharpe: 'Sharpe ratio: mean(daily return) / sample std(daily return) x sqrt(365); risk-free rate 0, daily returns of the portfolio value at UTC day ends.',
  sortino: 'Sortino ratio: mean(daily return) / sqrt(sum of squared negative returns / N) x sqrt(365); risk-free rate 0.',
  calmar: 'Calmar ratio: CAGR over the period / |maximum drawdown|.',
  maxDrawdown: 'Maximum drawdown: the largest fall of the value from its running peak (including the starting value), as a fraction of that peak.',
  currentDrawdown: 'Current drawdown: how far the latest value is below its running peak.',
  recoveryFactor: 'Recovery factor: the net change in value over the period / the largest fall in USD.',
  profitFactor: "Profit factor: gross profit / gross loss over the period's trades.",
  winLoss: 'Win/loss ratio: winning trades / losing trades.',
  var95: 'Value at Risk 95% (historical): minus the 5% quantile of daily returns (linear interpolation): the loss not exceeded on 95% of days, as a fraction and in USD of the current portfolio value.',
  var99: 'Value at Risk 99% (historical): the 1% quantile of daily returns, as a loss fraction and in USD of the current portfolio value.',
  parametricVar: 'Parametric VaR: -(mean + z x std) of daily returns, assuming normally distributed returns (z = -1.645 at 95%, -2.326 at 99%).',
  expectedShortfall: 'Expected shortfall (95%): minus the mean of the daily returns at or below the 5% quantile: the average loss on the worst days.',
  volatility: 'Volatility: sample standard deviation of daily returns x sqrt(365), annualised for a 24/7 market.',
  beta: "Beta: covariance of the portfolio's daily returns with BTC-USD's / variance of BTC-USD's.",
  correlation: 'Correlation: Pearson correlation of simple daily close-to-close returns over the period (-1 to 1).',
  diversification: "Diversification ratio: the holdings' weighted daily volatilities / the volatility of their mix; 1 for a single asset or perfectly correlated ones, higher the more they offset each other.",
  accuracy: 'Accuracy: resolved decisions with a profit / resolved decisions (pending ones are left out).',
  successRate: 'Success rate: resolved decisions of this type with a profit / resolved ones (HOLD places no order and never resolves).',
  confidence: 'Average confidence: mean of the model\'s stated confidence (0-1) over the decisions.',
  responseTime: 'Response time: mean recorded latency of the model calls, in seconds (failed calls included).',
  kestrelIndex: "Kestrel market index (0-100): Kestrel's own reading, the mean of momentum (close vs 20-day mean), volatility (7-day vs 30-day) and volume (7-day vs 30-day, signed by the week's move) over the tracked symbols. Not a third-party fear & greed index.",
  marketCap: 'Market cap: price x circulating supply, from the dated supply table shipped with Kestrel (source and date shown); the total is the sum of the four tracked assets.',
  volatilityIndex: 'Volatility index: mean annualised volatility of daily returns over the four symbols.',
  riskContribution: "Risk contribution: the share of the portfolio's daily return variance (w_i (S w)_i / w' S w; for a pair 2 w_i w_j S_ij / w' S w).",
  allocationHistory:
    "Allocation over time: at the end of each UTC day, the quantities held (from your fills up to then) valued at that day's close (today: the price now), and cash, each as a share of their sum.",
  probability:
    'Probability: how often a move at least this large happened in the shipped daily history (Coinbase daily closes): occurrences / windows of the stated length, overlapping. None when it never happened there: a short history is no proof it cannot.',
  scenario: "Scenario impact: each current holding's market value x the scenario's move for its symbol, to the cent, summed.",
  stress: "Stress test: each holding's current market value x the scenario's shock, to the cent; the portfolio impact is the sum, impactPercent its share of the portfolio value.",
} as const;

/** A figure as a number, or null when absent or not finite. */
export function num(v: Num | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A figure the server sends as a percent already (5.71 = 5.71%); '—' when null. */
export function percent(v: Num | undefined, places = 2): string {
  const n = num(v);
  return n === null ? DASH : formatShare(n, places);
}

export function signedPercent(v: Num | undefined, places = 2): string {
  const n = num(v);
  return n === null ? DASH : signedPct(n / 100, places);
}

/** A fraction as a percent; '—' when null. */
export function pct(v: Num | undefined, places = 2): string {
  const n = num(v);
  if (n === null) return DASH;
  return formatShare(n * 100, places);
}

export function signedPct(v: Num | undefined, places = 2): string {
  const n = num(v);
  if (n === null) return DASH;
  return formatPercent(n * 100, places);
}

export function money(v: Num | undefined): string {
  return num(v) === null ? DASH : formatMoney(v as number | string);
}

export function signedMoney(v: Num | undefined): string {
  return num(v) === null ? DASH : formatSignedMoney(v as number | string);
}

export function ratio(v: Num | undefined, places = 2): string {
  const n = num(v);
  return n === null ? DASH : formatNumber(n, places);
}

/** Dollars in trillions or billions, e.g. $2.13T. */
export function scaled(v: Num | undefined, unit: 'T' | 'B'): string {
  const n = num(v);
  if (n === null) return DASH;
  return `$${formatNumber(n / (unit === 'T' ? 1e12 : 1e9), 2)}${unit}`;
}

export function compact(v: Num | undefined): string {
  const n = num(v);
  if (n === null) return DASH;
  return formatCompact(n);
}

const GREEN = 'text-emerald-600 dark:text-emerald-400';
const YELLOW = 'text-amber-600 dark:text-amber-400';
const RED = 'text-red-600 dark:text-red-400';

/** Spec section 9: confidence green at 0.8 or above, yellow at 0.6 or above, else red. */
export function confidenceClass(v: Num | undefined): string {
  const n = num(v);
  if (n === null) return '';
  return n >= 0.8 ? GREEN : n >= 0.6 ? YELLOW : RED;
}

/** Spec section 9: win rate green at 0.6 or above, yellow at 0.4 or above, else red. */
export function winRateClass(v: Num | undefined): string {
  const n = num(v);
  if (n === null) return '';
  return n >= 0.6 ? GREEN : n >= 0.4 ? YELLOW : RED;
}

export function signClass(v: Num | undefined): string {
  const n = num(v);
  if (n === null || n === 0) return '';
  return n > 0 ? GREEN : RED;
}

/** Spec section 9: the index is green above 50, red otherwise. */
export function indexClass(v: Num | undefined): string {
  const n = num(v);
  if (n === null) return '';
  return n > 50 ? GREEN : RED;
}

/** Spec section 9: correlation strength above 0.7 strong, above 0.3 moderate, else weak (by magnitude). */
export function correlationStrength(v: Num | undefined): string {
  const n = num(v);
  if (n === null) return DASH;
  const a = Math.abs(n);
  return a > 0.7 ? 'Strong' : a > 0.3 ? 'Moderate' : 'Weak';
}

/** Spec section 9: risk-table correlation level above 0.8 High, above 0.6 Medium, else Low. */
export function correlationLevel(v: Num | undefined): 'High' | 'Medium' | 'Low' | null {
  const n = num(v);
  if (n === null) return null;
  const a = Math.abs(n);
  return a > 0.8 ? 'High' : a > 0.6 ? 'Medium' : 'Low';
}

/** Spec section 9: a stress result is severe at or below -20% (impactPercent is a percent). */
export function isSevere(impactPercent: Num | undefined): boolean {
  const n = num(impactPercent);
  return n !== null && n <= -20;
}

/** winRateClass for a figure sent as a percent. */
export function winRatePctClass(v: Num | undefined): string {
  const n = num(v);
  return n === null ? '' : winRateClass(n / 100);
}

export function dayLabel(iso: string): string {
  return formatDate(iso.slice(0, 10));
}

/** A chart axis of account amounts: -$4.13, $1,250 (lib/format's moneyAxis, in the display currency). */
export const usdAxis = moneyAxis;

/**
 * What to say when the data covers less than the period asked for (null when it covers it all): the dates it does
 * cover, so 3 days of history are never read as 90.
 */
export function coverageNote(c: Coverage | undefined, period: Period): string | null {
  if (!c || c.complete) return null;
  const asked = PERIOD_LABELS[period];
  if (!c.from) return `No data recorded in the ${asked.toLowerCase()} asked for.`;
  const days = Math.max(0, (new Date(c.to).getTime() - new Date(c.from).getTime()) / 86_400_000);
  const span = days < 1 ? `${Math.max(1, Math.round(days * 24))} hour(s)` : `${formatNumber(days, 1)} days`;
  return `Data covers only ${formatDateTime(c.from)} to ${formatDateTime(c.to)} (${span}) of the ${asked.toLowerCase()} asked for.`;
}
