/** The Research screen's pure logic: the form, the search space, the heatmap and the sorting. */
import { groupNumber } from '@/lib/format';
import type { SweepRequest, SweepTrial } from './types';

export const OBJECTIVES = [
  { value: 'sharpe', label: 'Sharpe ratio', metric: 'sharpe_ratio' },
  { value: 'total_return', label: 'Total return', metric: 'total_return' },
  { value: 'sortino', label: 'Sortino ratio', metric: 'sortino_ratio' },
  { value: 'calmar', label: 'Calmar ratio', metric: 'calmar_ratio' },
  { value: 'profit_factor', label: 'Profit factor', metric: 'profit_factor' },
] as const;

/** One parameter of the search space: a grid's values, or a random search's range. */
export interface SpaceRow {
  name: string;
  values: string; // grid: "7, 14, 21"
  min: string;
  max: string;
  step: string;
}

export interface ResearchForm {
  strategy_name: string;
  symbol: string;
  start_date: string;
  end_date: string;
  initial_capital: string;
  space: 'grid' | 'random';
  rows: SpaceRow[];
  trials: string;
  seed: string;
  objective: string;
  min_trades: string;
  walk_forward: boolean;
  wf_mode: 'rolling' | 'anchored';
  wf_folds: string;
  wf_fraction: string;
  /** The blocks S the probability of backtest overfitting cuts the period into (even, 2-16). */
  pbo_blocks: string;
}

/** The server's default number of PBO blocks; the ask leaves it out when unchanged. */
export const PBO_BLOCKS = 16;

export type ResearchErrors = Partial<Record<string, string>>;

export function defaultResearchForm(): ResearchForm {
  return {
    strategy_name: '',
    symbol: 'BTC-USD',
    start_date: '',
    end_date: '',
    initial_capital: '10000',
    space: 'grid',
    rows: [],
    trials: '50',
    seed: '1',
    objective: 'sharpe',
    min_trades: '0',
    walk_forward: false,
    wf_mode: 'rolling',
    wf_folds: '4',
    wf_fraction: '0.7',
    pbo_blocks: String(PBO_BLOCKS),
  };
}

/**
 * The numeric parameters of a strategy configuration that a sweep can vary, by dotted path, with their
 * current values: top-level numbers (min_confidence, ...) and the indicators' settings. name, type,
 * timeframe and symbols never vary (the server refuses them), nor do AI-model settings here.
 */
export function sweepableParams(cfg: Record<string, unknown> | undefined): { name: string; value: number }[] {
  if (!cfg) return [];
  const out: { name: string; value: number }[] = [];
  for (const k of ['min_confidence', 'max_position_size', 'risk_multiplier']) {
    const v = cfg[k];
    if (typeof v === 'number') out.push({ name: k, value: v });
  }
  const ind = cfg.indicators;
  if (ind && typeof ind === 'object') {
    for (const [k, v] of Object.entries(ind as Record<string, unknown>)) if (typeof v === 'number') out.push({ name: `indicators.${k}`, value: v });
  }
  return out;
}

/** A parameter's default row: its current value and its neighbours (grid), or a range around it (random). */
export function defaultRow(name: string, value: number): SpaceRow {
  const int = Number.isInteger(value);
  const step = int ? Math.max(1, Math.round(value / 4)) : Number((value / 4).toPrecision(2)) || 0.1;
  const lo = int ? Math.max(1, value - step) : Number((value - step).toPrecision(4));
  const hi = int ? value + step : Number((value + step).toPrecision(4));
  return { name, values: [lo, value, hi].join(', '), min: String(lo), max: String(hi), step: String(step) };
}

/** The numbers of a comma-separated list; null when one is not a number. */
export function parseValues(s: string): number[] | null {
  const parts = s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  if (parts.length === 0) return null;
  const out = parts.map(Number);
  return out.some((n) => !Number.isFinite(n)) ? null : out;
}

/** What the form can check before asking: the server checks everything again with field errors. */
export function validateResearch(f: ResearchForm): ResearchErrors {
  const e: ResearchErrors = {};
  if (!f.strategy_name) e.strategy_name = 'Please select a strategy';
  if (!f.start_date || !f.end_date) e.start_date = 'Please select start and end dates';
  else if (f.start_date >= f.end_date) e.start_date = 'Start date must be before end date';
  if (!(Number(f.initial_capital) > 0)) e.initial_capital = 'Initial capital must be greater than 0';
  if (f.rows.length === 0) e.space = 'Add at least one parameter to vary';
  const seen = new Set<string>();
  f.rows.forEach((r, i) => {
    if (seen.has(r.name)) e[`row${i}`] = `${r.name} is in the space twice`;
    seen.add(r.name);
    if (f.space === 'grid' && !parseValues(r.values)) e[`row${i}`] = 'Give numbers separated by commas';
    if (f.space === 'random' && ![r.min, r.max, r.step].every((x) => x.trim() !== '' && Number.isFinite(Number(x)))) e[`row${i}`] = 'Give min, max and step as numbers';
  });
  if (f.space === 'random' && !(Number.isInteger(Number(f.trials)) && Number(f.trials) > 0)) e.trials = 'Trials must be a whole number above 0';
  if (!(Number.isInteger(Number(f.min_trades)) && Number(f.min_trades) >= 0)) e.min_trades = 'Minimum trades must be a whole number, 0 or more';
  const blocks = Number(f.pbo_blocks);
  if (!(Number.isInteger(blocks) && blocks >= 2 && blocks <= 16 && blocks % 2 === 0)) e.pbo_blocks = 'pbo_blocks must be even, from 2 to 16';
  if (f.walk_forward) {
    const n = Number(f.wf_folds);
    if (!(Number.isInteger(n) && n >= 2 && n <= 20)) e['walk_forward.folds'] = 'Folds must be between 2 and 20';
    const fr = Number(f.wf_fraction);
    if (!(fr > 0 && fr < 1)) e['walk_forward.in_sample_fraction'] = 'The in-sample fraction is between 0 and 1';
  }
  return e;
}

/** The form as POST /api/sweeps asks for it. */
export function toSweepAsk(f: ResearchForm): SweepRequest {
  const ask: SweepRequest = {
    strategy_name: f.strategy_name,
    symbol: f.symbol,
    start_date: f.start_date,
    end_date: f.end_date,
    initial_capital: f.initial_capital,
    objective: f.objective as SweepRequest['objective'],
    min_trades: Number(f.min_trades) || 0,
  };
  if (f.space === 'grid') {
    ask.grid = Object.fromEntries(f.rows.map((r) => [r.name, parseValues(r.values) ?? []]));
  } else {
    ask.random = Object.fromEntries(f.rows.map((r) => [r.name, { min: r.min.trim(), max: r.max.trim(), step: r.step.trim() }]));
    ask.trials = Number(f.trials);
    ask.seed = Number(f.seed) || 0;
  }
  if (f.walk_forward) ask.walk_forward = { mode: f.wf_mode, folds: Number(f.wf_folds), in_sample_fraction: Number(f.wf_fraction) };
  if (Number(f.pbo_blocks) !== PBO_BLOCKS) ask.pbo_blocks = Number(f.pbo_blocks);
  return ask;
}

/** A trial's value of a search-space parameter. */
export function valueOf(t: SweepTrial, name: string): unknown {
  return (t.values as Record<string, unknown>)[name];
}

/** A metric of a trial (null when absent or undefined). */
export function metricOf(t: SweepTrial, key: string): number | null {
  const v = (t.metrics as Record<string, unknown>)[key];
  return typeof v === 'number' ? v : null;
}

export interface HeatCell {
  x: unknown;
  y: unknown;
  /** The best eligible score among the trials with these two values; null when none is eligible. */
  score: number | null;
  /** The trial that holds it. */
  trial: number | null;
  /** Trials with these two values (more than one when other parameters vary too). */
  count: number;
}

const keyOf = (v: unknown) => JSON.stringify(v);

function sortValues(vs: unknown[]): unknown[] {
  return [...vs].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
}

/**
 * The heatmap of the objective over two parameters: one cell per pair of their values; a cell's score is
 * the best eligible trial's with those values (over the other parameters, when there are more than two).
 */
export function heatmap(trials: SweepTrial[], xName: string, yName: string): { xs: unknown[]; ys: unknown[]; cells: HeatCell[][]; min: number | null; max: number | null } {
  const xs = sortValues([...new Map(trials.map((t) => [keyOf(valueOf(t, xName)), valueOf(t, xName)])).values()]);
  const ys = sortValues([...new Map(trials.map((t) => [keyOf(valueOf(t, yName)), valueOf(t, yName)])).values()]);
  const xi = new Map(xs.map((v, i) => [keyOf(v), i]));
  const yi = new Map(ys.map((v, i) => [keyOf(v), i]));
  const cells: HeatCell[][] = ys.map((y) => xs.map((x) => ({ x, y, score: null, trial: null, count: 0 })));
  let min: number | null = null;
  let max: number | null = null;
  for (const t of trials) {
    const c = cells[yi.get(keyOf(valueOf(t, yName)))!]![xi.get(keyOf(valueOf(t, xName)))!]!;
    c.count++;
    if (!t.eligible || t.score === null) continue;
    if (c.score === null || t.score > c.score) {
      c.score = t.score;
      c.trial = t.index;
    }
    min = min === null ? t.score : Math.min(min, t.score);
    max = max === null ? t.score : Math.max(max, t.score);
  }
  return { xs, ys, cells, min, max };
}

/** The objective's break-even value: 1 for the profit factor (gross profit = gross loss), 0 for the others. */
export const breakEven = (objective: string) => (objective === 'profit_factor' ? 1 : 0);

/**
 * A cell's colour on a scale centred on the break-even value: red below it (a loss is never green), green above,
 * both deeper the further from it, up to the largest distance in the map; grey at it.
 */
export function heatColor(score: number, min: number, max: number, centre = 0): string {
  const reach = Math.max(Math.abs(min - centre), Math.abs(max - centre));
  if (score === centre || reach === 0) return 'hsl(215 16% 47%)';
  const f = Math.min(1, Math.abs(score - centre) / reach);
  const hue = score < centre ? 0 : 142;
  return `hsl(${hue} ${Math.round(35 + 45 * f)}% ${Math.round(52 - 14 * f)}%)`;
}

export type SortKey = 'index' | 'score' | 'trades' | `metric:${string}` | `param:${string}`;

/** Trials sorted by a column; undefined values last whichever the direction. */
export function sortTrials(trials: SweepTrial[], key: SortKey, desc: boolean): SweepTrial[] {
  const get = (t: SweepTrial): number | string | null => {
    if (key === 'index') return t.index;
    if (key === 'score') return t.score;
    if (key === 'trades') return t.trades;
    if (key.startsWith('metric:')) return metricOf(t, key.slice(7));
    const v = valueOf(t, key.slice(6));
    return typeof v === 'number' || typeof v === 'string' ? v : v === undefined ? null : String(v);
  };
  return [...trials].sort((a, b) => {
    const va = get(a);
    const vb = get(b);
    if (va === null && vb === null) return a.index - b.index;
    if (va === null) return 1;
    if (vb === null) return -1;
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return (desc ? -c : c) || a.index - b.index;
  });
}

/** A value as shown in a cell. */
export function show(v: unknown, places = 4): string {
  if (v === null || v === undefined) return 'N/A';
  if (typeof v === 'number') return groupNumber(v, Number.isInteger(v) ? 0 : places, undefined, 0);
  return String(v);
}
