/** Parameter overrides of a backtest, built from the strategy's own parameters. */
import type { BacktestReport } from './types';
import type { StrategyConfig } from '../strategies/types';
import { timeframeLabel } from '@/lib/timeframe';

/** One parameter a run may override: where it sits in the configuration and its saved value. */
export interface OverrideField {
  path: string[];
  label: string;
  saved: number | string;
  kind: 'number' | 'timeframe';
}

const LABELS: Record<string, string> = {
  min_confidence: 'Min confidence',
  max_position_size: 'Max position size',
  risk_multiplier: 'Risk multiplier',
  timeframe: 'Timeframe',
  rsi_period: 'RSI period',
  rsi_oversold: 'RSI oversold',
  rsi_overbought: 'RSI overbought',
  sma_short: 'Short SMA',
  sma_long: 'Long SMA',
  macd_fast: 'MACD fast',
  macd_slow: 'MACD slow',
  macd_signal: 'MACD signal',
  bollinger_period: 'Bollinger period',
  bollinger_std: 'Bollinger std. dev.',
  temperature: 'Temperature',
  context_length: 'Context length',
  max_tokens: 'Max tokens',
};

const label = (k: string) => LABELS[k] ?? k.replace(/_/g, ' ');

/**
 * The parameters of c a run can override, as the server accepts them: the
 * sizing and timeframe always, every indicator setting the instance has, and
 * an AI instance's numeric model settings. Anything else typed as JSON is
 * refused by the server (400), never silently run.
 */
export function overrideFields(c: StrategyConfig): OverrideField[] {
  const out: OverrideField[] = [
    { path: ['min_confidence'], label: label('min_confidence'), saved: c.min_confidence, kind: 'number' },
    { path: ['max_position_size'], label: label('max_position_size'), saved: c.max_position_size, kind: 'number' },
    { path: ['risk_multiplier'], label: label('risk_multiplier'), saved: c.risk_multiplier, kind: 'number' },
    { path: ['timeframe'], label: label('timeframe'), saved: c.timeframe, kind: 'timeframe' },
  ];
  for (const [k, v] of Object.entries(c.indicators ?? {})) {
    if (typeof v === 'number') out.push({ path: ['indicators', k], label: label(k), saved: v, kind: 'number' });
  }
  for (const k of ['temperature', 'context_length', 'max_tokens'] as const) {
    const v = c[k];
    if (typeof v === 'number') out.push({ path: [k], label: label(k), saved: v, kind: 'number' });
  }
  return out;
}

/** The value at path in an overrides object, if set. */
export function getAt(o: Record<string, unknown> | undefined, path: string[]): unknown {
  let cur: unknown = o;
  for (const k of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** o with path set to v (undefined removes it, and a nested object left empty). */
export function setAt(o: Record<string, unknown>, path: string[], v: unknown): Record<string, unknown> {
  const [k, ...rest] = path;
  if (k === undefined) return o;
  const out = { ...o };
  if (rest.length === 0) {
    if (v === undefined) delete out[k];
    else out[k] = v;
    return out;
  }
  const inner = out[k] && typeof out[k] === 'object' ? (out[k] as Record<string, unknown>) : {};
  const next = setAt(inner, rest, v);
  if (Object.keys(next).length === 0) delete out[k];
  else out[k] = next;
  return out;
}

/** Overrides in a line: "rsi_oversold 40, timeframe 15 minutes"; "" without any. */
export function describeOverrides(params: Record<string, unknown> | null | undefined): string {
  const parts: string[] = [];
  const walk = (o: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>);
      else parts.push(`${k} ${Array.isArray(v) ? v.join('/') : k === 'timeframe' ? timeframeLabel(String(v)) : String(v)}`);
    }
  };
  if (params) walk(params);
  return parts.join(', ');
}

/** A run's equity curve as its return since the start, in percent, by time (Unix seconds, one point per time). */
export function returnSeries(r: Pick<BacktestReport, 'equity_curve' | 'initial_equity'>): { time: number; value: number }[] {
  const initial = Number(r.initial_equity);
  if (!(initial > 0)) return [];
  const byTime = new Map<number, number>();
  for (const p of r.equity_curve ?? []) byTime.set(Math.floor(new Date(p.time).getTime() / 1000), ((Number(p.equity) - initial) / initial) * 100);
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
}
