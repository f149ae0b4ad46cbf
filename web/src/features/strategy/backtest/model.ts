import { formatMoney, formatNumber, formatPercent, formatShare, toNum } from '@/lib/format';
import type { AIMode, BacktestAsk, BacktestReport, LiveEstimate } from './types';
import { periodOutside, type DataSpan } from '@/lib/coverage';

/** The spec's backtest messages (section 5), as the server words them too. */
export const MSG = {
  strategy: 'Please select a strategy',
  symbol: 'Please enter a trading symbol',
  dates: 'Please select start and end dates',
  order: 'Start date must be before end date',
  capital: 'Initial capital must be greater than 0',
  short: 'Backtest period must be at least 7 days',
  long: 'Backtest period cannot exceed 365 days',
  params: 'Parameter overrides must be a JSON object',
} as const;

export const DEFAULT_CAPITAL = 10_000;
const DAY = 86_400_000;

/** The form as typed: every field a string. */
export interface BacktestForm {
  strategy_name: string;
  symbol: string;
  start_date: string;
  end_date: string;
  initial_capital: string;
  params: string;
  /** Basis points paid beyond the book on every market fill. */
  slippage_bps: string;
  /** The largest share of a candle's volume one order may take, in percent ('' or 0: no cap). */
  volume_cap_pct: string;
  /** AI-driven and hybrid strategies only; the selector resets it to builtin for the others. */
  ai_mode: AIMode;
  /** Monte Carlo of the closed trades: its runs ('' : none asked), method, seed and the drawdown counted as ruin, in percent. */
  mc_runs: string;
  mc_method: MonteCarloMethod;
  mc_seed: string;
  mc_ruin_pct: string;
}

export type MonteCarloMethod = 'bootstrap' | 'shuffle';

/** The Monte Carlo methods, in plain words. */
export const MC_METHODS: { value: MonteCarloMethod; label: string; hint: string }[] = [
  { value: 'bootstrap', label: 'Bootstrap', hint: 'Each run draws as many trades as the backtest closed, at random and with repeats: some trades come twice, some not at all.' },
  { value: 'shuffle', label: 'Shuffled order', hint: 'Each run replays the same trades in a random order: the final equity stays the same, the drawdown along the way changes.' },
];

/** The server's bounds of a Monte Carlo ask. */
export const MC_RUNS = { min: 100, max: 10_000, default: 1000 };

export const AI_MODES: { value: AIMode; label: string; hint: string }[] = [
  { value: 'builtin', label: 'Built-in analyst', hint: 'Offline and free; the same answers every run.' },
  { value: 'recorded', label: 'Recorded decisions', hint: 'Replays the decisions recorded live for the same prompt; a prompt never recorded counts as HOLD.' },
  { value: 'live', label: 'Live model', hint: 'Operators only: asks the configured model once per candle, within the cap on model calls; you confirm the number of calls first.' },
];

/** Strategy kinds whose decisions come from a model. */
export const usesAI = (type: string | undefined) => type === 'ai_driven' || type === 'hybrid';

/** Tells a live-model estimate from a queued run (or a report) in the answer to a run. */
export const isEstimate = (r: { status: string } | LiveEstimate): r is LiveEstimate => r.status === 'confirmation_required';

/** Whether a backtest job has ended (completed, failed or cancelled). */
export const isFinished = (status: string) => status === 'completed' || status === 'failed' || status === 'cancelled';

export type BacktestErrors = Partial<Record<keyof BacktestForm, string>>;

/**
 * The form before the store's coverage is known: no period yet. The spec's default, the last three months, ends
 * with the newest candle stored, not today: useDataPeriod sets it once the coverage answers (marketCoverage.ts).
 */
export function defaultForm(): BacktestForm {
  return { strategy_name: '', symbol: 'BTC-USD', start_date: '', end_date: '', initial_capital: String(DEFAULT_CAPITAL), params: '', slippage_bps: '0', volume_cap_pct: '', ai_mode: 'builtin', ...MC_OFF };
}

const MC_OFF = { mc_runs: '', mc_method: 'bootstrap' as MonteCarloMethod, mc_seed: '0', mc_ruin_pct: '50' };

/** The form that asks for a stored run again, so it can be re-run with changes. */
export function formFromRequest(r: {
  strategy_name: string;
  symbol: string;
  start_date: string;
  end_date: string;
  initial_capital: string | number;
  params?: Record<string, unknown>;
  slippage_bps?: string | number;
  volume_cap?: string | number;
  ai_mode?: AIMode;
  monte_carlo?: { runs?: number; method?: MonteCarloMethod; seed?: number; ruin_drawdown?: number };
}): BacktestForm {
  const mc = r.monte_carlo;
  return {
    strategy_name: r.strategy_name,
    symbol: r.symbol,
    start_date: r.start_date.slice(0, 10),
    end_date: r.end_date.slice(0, 10),
    initial_capital: String(r.initial_capital),
    params: r.params ? JSON.stringify(r.params) : '',
    slippage_bps: String(r.slippage_bps ?? '0'),
    volume_cap_pct: Number(r.volume_cap ?? 0) > 0 ? String(Number(r.volume_cap) * 100) : '',
    ai_mode: r.ai_mode ?? 'builtin',
    ...(mc
      ? { mc_runs: String(mc.runs || MC_RUNS.default), mc_method: mc.method ?? 'bootstrap', mc_seed: String(mc.seed ?? 0), mc_ruin_pct: String((mc.ruin_drawdown || 0.5) * 100) }
      : MC_OFF),
  };
}

function parseParams(raw: string): Record<string, unknown> | null | undefined {
  if (!raw.trim()) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The server's checks, in the browser, with the same messages on the same fields; span: the symbol's stored data, when known. */
export function validateBacktest(f: BacktestForm, span?: DataSpan | null): BacktestErrors {
  const e: BacktestErrors = {};
  if (!f.strategy_name.trim()) e.strategy_name = MSG.strategy;
  if (!f.symbol.trim()) e.symbol = MSG.symbol;
  const start = Date.parse(f.start_date);
  const end = Date.parse(f.end_date);
  if (!f.start_date || !f.end_date || Number.isNaN(start) || Number.isNaN(end)) e.start_date = MSG.dates;
  else if (start >= end) e.start_date = MSG.order;
  else if (end - start < 7 * DAY) e.end_date = MSG.short;
  else if (end - start > 365 * DAY) e.end_date = MSG.long;
  else if (span) {
    const out = periodOutside(span, f.start_date, f.end_date);
    if (out) e[out.field] = out.message;
  }
  const capital = Number(f.initial_capital);
  if (f.initial_capital.trim() === '' || !Number.isFinite(capital) || capital <= 0) e.initial_capital = MSG.capital;
  if (parseParams(f.params) === null) e.params = MSG.params;
  const bps = Number(f.slippage_bps || '0');
  if (!Number.isFinite(bps) || bps < 0 || bps > 1000) e.slippage_bps = 'Slippage must be between 0 and 1000 basis points';
  const cap = Number(f.volume_cap_pct || '0');
  if (!Number.isFinite(cap) || cap < 0 || cap > 100) e.volume_cap_pct = "Volume cap must be a share of the candle's volume between 0 and 100%";
  if (f.mc_runs.trim() !== '') {
    const runs = Number(f.mc_runs);
    if (!Number.isInteger(runs) || runs < MC_RUNS.min || runs > MC_RUNS.max) e.mc_runs = `Monte Carlo runs must be between ${MC_RUNS.min} and ${MC_RUNS.max}`;
    const seed = Number(f.mc_seed || '0');
    if (!Number.isSafeInteger(seed) || seed < 0) e.mc_seed = 'The seed must be a whole number, 0 or more';
    const ruin = Number(f.mc_ruin_pct || '50');
    if (!Number.isFinite(ruin) || ruin <= 0 || ruin > 100) e.mc_ruin_pct = 'Ruin drawdown must be a share of the equity peak above 0 and at most 100%';
  }
  return e;
}

/** The request for a valid form. */
export function toAsk(f: BacktestForm): BacktestAsk {
  const ask: BacktestAsk = { strategy_name: f.strategy_name.trim(), symbol: f.symbol.trim().toUpperCase(), start_date: f.start_date, end_date: f.end_date, initial_capital: Number(f.initial_capital) };
  const params = parseParams(f.params);
  if (params) ask.params = params;
  const bps = Number(f.slippage_bps || '0');
  if (bps > 0) ask.slippage_bps = bps;
  const cap = Number(f.volume_cap_pct || '0');
  if (cap > 0) ask.volume_cap = cap / 100;
  if (f.ai_mode !== 'builtin') ask.ai_mode = f.ai_mode;
  if (f.mc_runs.trim() !== '') {
    ask.monte_carlo = { runs: Number(f.mc_runs), method: f.mc_method, seed: Number(f.mc_seed || '0'), ruin_drawdown: Number(f.mc_ruin_pct || '50') / 100 };
  }
  return ask;
}

/** A fraction as a percent, e.g. 0.1234 -> "12.34%". */
export function pct(fraction: number, places = 2): string {
  return formatShare(fraction * 100, places);
}

export const ratio = (n: number | null | undefined) => (n != null && Number.isFinite(n) ? formatNumber(n, 2) : 'N/A');

/** A signed percent of a fraction, or N/A when the report has none (null). */
export const signedPctOrNA = (f: number | null | undefined) => (f == null ? 'N/A' : formatPercent(f * 100));

/** The report's account of its signals; a run stored before the account existed gave only a total. */
export function signalCounts(r: BacktestReport): { total: number; traded: number | null; notExecuted: [string, number][] } {
  const s = r.signals as unknown;
  if (typeof s === 'number') {
    const legacy = (r as unknown as { not_executed?: Record<string, number> | null }).not_executed ?? {};
    return { total: s, traded: null, notExecuted: Object.entries(legacy).sort((a, b) => b[1] - a[1]) };
  }
  return { total: r.signals.total, traded: r.signals.traded, notExecuted: Object.entries(r.signals.not_executed ?? {}).sort((a, b) => b[1] - a[1]) };
}

/** The spec's derived values (section 9) and the report's own figures, ready to show. */
export function derived(r: BacktestReport) {
  const capital = toNum(r.initial_equity);
  return {
    /** Initial capital x total return / total trades. */
    averageTrade: r.total_trades > 0 ? formatMoney((capital * r.total_return) / r.total_trades) : 'N/A',
    /** The server's exact final equity (not recomputed from the float return). */
    finalValue: formatMoney(r.final_equity),
    /** Winning / losing trades, N/A if either is 0. */
    winLoss: r.winning_trades > 0 && r.losing_trades > 0 ? ratio(r.winning_trades / r.losing_trades) : 'N/A',
    /** Gross profit / gross loss; N/A without a loss (the API's null). */
    profitFactor: ratio(r.profit_factor),
  };
}

/** The spec's win-rate colour: green at 60% or above, yellow at 40%, else red. */
export function winRateClass(fraction: number): string {
  if (fraction >= 0.6) return 'text-emerald-600 dark:text-emerald-400';
  if (fraction >= 0.4) return 'text-amber-600 dark:text-amber-400';
  return 'text-red-600 dark:text-red-400';
}

const REASONS: Record<string, string> = { signal: 'Signal', stop_loss: 'Stop-loss', take_profit: 'Take-profit', end_of_data: 'End of data' };
export const reasonLabel = (r: string) => REASONS[r] ?? r;

/** Candle widths in seconds, smallest first. */
export const WIDTHS: [string, number][] = [
  ['ONE_MINUTE', 60],
  ['FIVE_MINUTE', 300],
  ['FIFTEEN_MINUTE', 900],
  ['THIRTY_MINUTE', 1800],
  ['ONE_HOUR', 3600],
  ['TWO_HOUR', 7200],
  ['SIX_HOUR', 21600],
  ['ONE_DAY', 86400],
];

/**
 * The most candles the price chart asks for: more than two for each pixel of a wide screen's chart. A year of
 * one-minute candles is drawn with six-hour ones (1,460): two-hour ones (4,380) tripled the answer and the time
 * to open the run.
 */
export const CHART_CANDLES = 2500;

/** The strategy's timeframe, or the next wider one that fits the period into CHART_CANDLES candles. */
export function chartGranularity(timeframe: string, start: string, end: string): string {
  const span = (Date.parse(end) - Date.parse(start)) / 1000;
  const from = Math.max(0, WIDTHS.findIndex(([g]) => g === timeframe));
  for (const [g, w] of WIDTHS.slice(from)) if (span / w <= CHART_CANDLES) return g;
  return 'ONE_DAY';
}

const FIELDS: (keyof BacktestForm)[] = ['strategy_name', 'symbol', 'start_date', 'end_date', 'initial_capital', 'params', 'ai_mode'];

/** The server's field errors on the form: those about an overridden parameter (params.name, indicators.rsi_period, timeframe…) under the overrides. */
export function formErrors(fields: Record<string, string>): BacktestErrors {
  const out: BacktestErrors = {};
  const params: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if ((FIELDS as string[]).includes(k) && k !== 'params') out[k as keyof BacktestForm] = v;
    else if (k in MC_FIELDS) out[MC_FIELDS[k]!] = v;
    else if (k === 'params' || k.startsWith('params.') || k.startsWith('indicators.') || OVERRIDABLE.includes(k)) params.push(v);
  }
  if (params.length) out.params = params.join('; ');
  return out;
}

const MC_FIELDS: Record<string, keyof BacktestForm> = { 'monte_carlo.runs': 'mc_runs', 'monte_carlo.method': 'mc_method', 'monte_carlo.ruin_drawdown': 'mc_ruin_pct' };

const OVERRIDABLE = ['min_confidence', 'max_position_size', 'risk_multiplier', 'symbols', 'timeframe', 'model', 'max_tokens', 'temperature', 'context_length', 'parameters', 'prompt_version'];
