import type { Evaluation, StrategyConfig } from './types';

/** Spec messages (sections 5 and 8). */
export const MSG = {
  minConfidence: 'Minimum confidence must be between 0 and 1',
  maxPosition: 'Maximum position size must be between 0 and 1',
  symbols: 'Please add at least one trading symbol',
  testSymbols: 'Please add at least one symbol to test',
  rsiPeriod: 'RSI period must be between 2 and 50',
  smaOrder: 'Short SMA period must be less than long SMA period',
  macdOrder: 'MACD fast period must be less than slow period',
  testFailedCall: 'Failed to test AI analysis',
  testFailed: 'AI analysis test failed',
  testOk: 'AI analysis test completed successfully',
  saveFailed: 'Failed to save configuration',
  aiSaved: 'AI strategy configuration saved successfully',
  aiEnabled: 'AI strategy enabled',
  aiDisabled: 'AI strategy disabled',
  aiEnableFailed: 'Failed to enable AI strategy',
  aiDisableFailed: 'Failed to disable AI strategy',
  techSaved: 'Technical analysis strategy configuration saved successfully',
  techEnabled: 'Technical analysis strategy enabled',
  techDisabled: 'Technical analysis strategy disabled',
  techEnableFailed: 'Failed to enable technical strategy',
  techDisableFailed: 'Failed to disable technical strategy',
  enableFailed: 'Failed to enable strategy',
  disableFailed: 'Failed to disable strategy',
  loadDecisions: 'Failed to load AI decisions',
  loadSignals: 'Failed to load strategy signals',
  loadStrategies: 'Failed to load strategies',
  noAIPerformance: 'No performance data available',
  noDecisions: 'No AI decisions found',
  noStrategies: 'No strategies',
  noPerformance: 'No performance data',
  noAnalysis: 'No data available for analysis',
} as const;

/** Field errors keyed like the server's ("min_confidence", "indicators.sma_short"). */
export type FieldErrors = Record<string, string>;

/** A number field: its key in the config, label and the spec's input bounds. */
export interface NumberSpec {
  key: string;
  label: string;
  min: number;
  max: number;
  step: number;
}

export const TRADING_FIELDS: NumberSpec[] = [
  { key: 'min_confidence', label: 'Minimum Confidence', min: 0.1, max: 1, step: 0.05 },
  { key: 'max_position_size', label: 'Max Position Size', min: 0.01, max: 1, step: 0.01 },
  { key: 'risk_multiplier', label: 'Risk Multiplier', min: 0.1, max: 3, step: 0.1 },
];

export const AI_FIELDS: NumberSpec[] = [
  { key: 'max_tokens', label: 'Max Tokens', min: 100, max: 2000, step: 50 },
  { key: 'temperature', label: 'Temperature', min: 0, max: 1, step: 0.1 },
  { key: 'context_length', label: 'Context Length', min: 10, max: 200, step: 1 },
];

export const INDICATOR_CARDS: { title: string; fields: NumberSpec[] }[] = [
  {
    title: 'RSI',
    fields: [
      { key: 'indicators.rsi_period', label: 'RSI Period', min: 2, max: 50, step: 1 },
      { key: 'indicators.rsi_oversold', label: 'Oversold Level', min: 10, max: 40, step: 1 },
      { key: 'indicators.rsi_overbought', label: 'Overbought Level', min: 60, max: 90, step: 1 },
    ],
  },
  {
    title: 'SMA',
    fields: [
      { key: 'indicators.sma_short', label: 'Short SMA Period', min: 5, max: 50, step: 1 },
      { key: 'indicators.sma_long', label: 'Long SMA Period', min: 10, max: 200, step: 1 },
    ],
  },
  {
    title: 'MACD',
    fields: [
      { key: 'indicators.macd_fast', label: 'MACD Fast Period', min: 5, max: 20, step: 1 },
      { key: 'indicators.macd_slow', label: 'MACD Slow Period', min: 20, max: 50, step: 1 },
      { key: 'indicators.macd_signal', label: 'MACD Signal Period', min: 5, max: 15, step: 1 },
    ],
  },
  {
    title: 'Bollinger Bands',
    fields: [
      { key: 'indicators.bollinger_period', label: 'Bollinger Period', min: 5, max: 100, step: 1 },
      { key: 'indicators.bollinger_std', label: 'Band Width (std devs)', min: 0.5, max: 5, step: 0.1 },
    ],
  },
];

/** A typed number: blank is NaN, so validation catches it. */
const num = (v: string) => (v.trim() === '' ? NaN : Number(v));

/** Trade memory bounds (strategy/config.go): trades 1 to 50 when on, the budget in estimated tokens. */
export const MEMORY = { maxTrades: 50, minTokens: 100, maxTokens: 4000, defaultTrades: 5, defaultTokens: 600 } as const;

/** The trade memory controls as typed. */
export interface MemoryDraft {
  on: boolean;
  trades: string;
  maxTokens: string;
}

export function toMemoryDraft(c: StrategyConfig): MemoryDraft {
  const m = c.memory;
  const on = !!m && m.trades > 0;
  return {
    on,
    trades: String(on ? m.trades : MEMORY.defaultTrades),
    maxTokens: String(m?.max_tokens || MEMORY.defaultTokens),
  };
}

/**
 * The memory a save sends. Omitted keys keep their saved values, so turning
 * memory off sends trades 0 (with the saved budget); a config that never had
 * memory omits it.
 */
export function memoryParams(d: MemoryDraft, saved: StrategyConfig['memory']): StrategyConfig['memory'] | undefined {
  if (d.on) return { trades: num(d.trades), max_tokens: num(d.maxTokens) };
  if (!saved) return undefined;
  return { trades: 0, max_tokens: saved.max_tokens ?? 0 };
}

/** The server's memory checks while on; 0 trades would silently mean off, so the form asks for at least one. */
export function validateMemory(d: MemoryDraft): FieldErrors {
  const e: FieldErrors = {};
  if (!d.on) return e;
  const trades = num(d.trades);
  const tokens = num(d.maxTokens);
  if (!(Number.isInteger(trades) && trades >= 1 && trades <= MEMORY.maxTrades)) e['memory.trades'] = `Memory trades must be between 1 and ${MEMORY.maxTrades}`;
  if (!(Number.isInteger(tokens) && tokens >= MEMORY.minTokens && tokens <= MEMORY.maxTokens)) e['memory.max_tokens'] = `Memory token budget must be between ${MEMORY.minTokens} and ${MEMORY.maxTokens}`;
  return e;
}

/** Form state: every number as typed, keyed like the server's fields. */
export type Draft = Record<string, string>;

/** The draft of a config's number fields. */
export function toDraft(c: StrategyConfig, specs: NumberSpec[]): Draft {
  const d: Draft = {};
  for (const s of specs) {
    const v = read(c, s.key);
    d[s.key] = v === undefined ? '' : String(v);
  }
  return d;
}

function read(c: StrategyConfig, key: string): unknown {
  const [a, b] = key.split('.');
  const top = (c as unknown as Record<string, unknown>)[a!];
  return b ? (top as Record<string, unknown> | undefined)?.[b] : top;
}

/** The partial config a draft saves: numbers parsed, indicators nested. */
export function fromDraft(d: Draft): Partial<StrategyConfig> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    const [a, b] = k.split('.');
    const n = num(v);
    if (b) out[a!] = { ...((out[a!] as object) ?? {}), [b]: n };
    else out[a!] = n;
  }
  return out as Partial<StrategyConfig>;
}

/** Comma-separated symbols: trimmed, upper-cased, blanks and repeats dropped. */
export function parseSymbols(text: string): string[] {
  const out: string[] = [];
  for (const s of text.split(',')) {
    const t = s.trim().toUpperCase();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

const fmt = (x: number) => String(x);

function between(e: FieldErrors, key: string, x: number | undefined, lo: number, hi: number, what: string) {
  if (x === undefined) return;
  if (!(x >= lo && x <= hi) && !e[key]) e[key] = `${what} must be between ${fmt(lo)} and ${fmt(hi)}`;
}

/** The server's checks (strategy/config.go), with the spec's messages, for the fields present. */
export function validate(c: Partial<StrategyConfig>): FieldErrors {
  const e: FieldErrors = {};
  const mc = c.min_confidence;
  if (mc !== undefined && !(mc >= 0 && mc <= 1)) e.min_confidence = MSG.minConfidence;
  const mp = c.max_position_size;
  if (mp !== undefined && !(mp > 0 && mp <= 1)) e.max_position_size = MSG.maxPosition;
  between(e, 'risk_multiplier', c.risk_multiplier, 0.1, 3, 'Risk multiplier');
  if (c.symbols !== undefined && c.symbols.length === 0) e.symbols = MSG.symbols;
  const i = c.indicators;
  if (i) {
    if (!(i.rsi_period >= 2 && i.rsi_period <= 50)) e['indicators.rsi_period'] = MSG.rsiPeriod;
    between(e, 'indicators.rsi_oversold', i.rsi_oversold, 10, 40, 'RSI oversold');
    between(e, 'indicators.rsi_overbought', i.rsi_overbought, 60, 90, 'RSI overbought');
    between(e, 'indicators.sma_short', i.sma_short, 5, 50, 'Short SMA period');
    between(e, 'indicators.sma_long', i.sma_long, 10, 200, 'Long SMA period');
    if (i.sma_short >= i.sma_long) e['indicators.sma_short'] ??= MSG.smaOrder;
    between(e, 'indicators.macd_fast', i.macd_fast, 5, 20, 'MACD fast period');
    between(e, 'indicators.macd_slow', i.macd_slow, 20, 50, 'MACD slow period');
    between(e, 'indicators.macd_signal', i.macd_signal, 5, 15, 'MACD signal period');
    if (i.macd_fast >= i.macd_slow) e['indicators.macd_fast'] ??= MSG.macdOrder;
    between(e, 'indicators.bollinger_period', i.bollinger_period, 5, 100, 'Bollinger period');
    between(e, 'indicators.bollinger_std', i.bollinger_std, 0.5, 5, 'Bollinger width');
  }
  if (c.model !== undefined && c.model.trim() === '') e.model = 'Model is required';
  between(e, 'max_tokens', c.max_tokens, 100, 2000, 'Max tokens');
  between(e, 'temperature', c.temperature, 0, 1, 'Temperature');
  between(e, 'context_length', c.context_length, 10, 200, 'Context length');
  return e;
}

/** RSI status (spec section 2): at or below oversold, at or above overbought, else Neutral; Unknown without a value. */
export function rsiStatus(rsi: number | null | undefined, oversold: number, overbought: number): 'Oversold' | 'Overbought' | 'Neutral' | 'Unknown' {
  if (rsi === null || rsi === undefined || !Number.isFinite(rsi)) return 'Unknown';
  if (rsi <= oversold) return 'Oversold';
  if (rsi >= overbought) return 'Overbought';
  return 'Neutral';
}

/** Confidence colour: green at 0.8 or above, yellow at 0.6 or above, else red. */
export function confidenceClass(c: number): string {
  if (c >= 0.8) return 'text-emerald-600 dark:text-emerald-400';
  if (c >= 0.6) return 'text-amber-600 dark:text-amber-400';
  return 'text-red-600 dark:text-red-400';
}

/** Win rate colour (rate as a fraction): green at 0.6 or above, yellow at 0.4 or above, else red. */
export function winRateClass(rate: number): string {
  if (rate >= 0.6) return 'text-emerald-600 dark:text-emerald-400';
  if (rate >= 0.4) return 'text-amber-600 dark:text-amber-400';
  return 'text-red-600 dark:text-red-400';
}

export const DECISION_CLASS: Record<string, string> = {
  BUY: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200',
  SELL: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
  HOLD: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200',
};

export const TYPE_LABEL: Record<string, string> = { technical: 'Technical', ai_driven: 'AI-driven', hybrid: 'Hybrid' };

/** The model an AI decision used; the built-in analyst is labelled as such. */
export function modelLabel(ev: Pick<Evaluation, 'provider' | 'model'>): string {
  if (ev.provider === 'builtin') return 'Built-in analyst (offline)';
  return [ev.provider, ev.model].filter(Boolean).join(' · ');
}

/** Whether a signal was executed, or why not. */
export function executionText(ev: Evaluation): string {
  if (ev.executed) return ev.order_id ? `Executed (order #${ev.order_id.slice(0, 8)})` : 'Executed';
  return ev.reason ? `Not executed: ${ev.reason}` : 'Not executed';
}

/** The CSV of evaluations (Export Data). */
export const CSV_COLUMNS = ['Time', 'Strategy', 'Symbol', 'Decision', 'Confidence', 'Executed', 'Reason', 'Order ID', 'Reasoning', 'Model', 'Error'];

export function evaluationRows(evs: Evaluation[]): string[][] {
  return evs.map((e) => [
    e.timestamp,
    e.strategy_name,
    e.symbol,
    e.decision,
    String(e.confidence),
    e.executed ? 'yes' : 'no',
    e.reason ?? '',
    e.order_id ?? '',
    e.reasoning,
    modelLabel(e),
    e.error ?? '',
  ]);
}

export function exportFileName(now: Date): string {
  return `strategy-history-${now.toISOString().slice(0, 10)}.csv`;
}

/** Summary figures of a set of evaluations (the Analytics tab). */
export function summarize(evs: Evaluation[]) {
  const by = (k: (e: Evaluation) => string) => {
    const m = new Map<string, { count: number; executed: number; confidence: number }>();
    for (const e of evs) {
      const r = m.get(k(e)) ?? { count: 0, executed: 0, confidence: 0 };
      r.count++;
      r.executed += e.executed ? 1 : 0;
      r.confidence += e.confidence;
      m.set(k(e), r);
    }
    return [...m.entries()].map(([key, r]) => ({ key, count: r.count, executed: r.executed, avgConfidence: r.confidence / r.count }));
  };
  const executed = evs.filter((e) => e.executed).length;
  const reasons = by((e) => (e.executed ? 'Executed' : (e.reason ?? 'Not executed').replace(/:.*$/, '')));
  return {
    total: evs.length,
    executed,
    executionRate: evs.length ? executed / evs.length : 0,
    avgConfidence: evs.length ? evs.reduce((s, e) => s + e.confidence, 0) / evs.length : 0,
    decisions: by((e) => e.decision),
    strategies: by((e) => e.strategy_name),
    symbols: by((e) => e.symbol),
    reasons: reasons.sort((a, b) => b.count - a.count),
  };
}
