import { formatShare } from '@/lib/format';
import { NoData } from './common';
import { maxOf, minOf } from '@/lib/extent';

/**
 * Bars, pies and histograms as plain SVG and CSS: no chart library, so the
 * analytics chunk carries no extra code for them.
 */

export interface Bar {
  label: string;
  value: number | null;
  /** Text shown at the bar's end; defaults to the value. */
  text?: string;
  color?: string;
  title?: string;
}

const POS = '#10b981';
const NEG = '#ef4444';

/** Horizontal bars, one a row, scaled to the largest magnitude; negative values in red unless a colour is given. */
export function HBars({ bars, label }: { bars: Bar[]; label: string }) {
  const rows = bars.filter((b) => b.value !== null) as (Bar & { value: number })[];
  if (rows.every((b) => b.value === 0)) return <NoData />;
  const max = maxOf(rows.map((b) => Math.abs(b.value)), 0) || 1;
  return (
    <ul aria-label={label} className="space-y-2">
      {rows.map((b) => (
        <li key={b.label} title={b.title} className="text-sm">
          <div className="flex justify-between gap-2">
            <span className="text-slate-600 dark:text-slate-300">{b.label}</span>
            <span className="tabular-nums">{b.text ?? b.value}</span>
          </div>
          <div className="mt-1 h-2 w-full rounded bg-slate-100 dark:bg-slate-800">
            <div className="h-2 rounded" style={{ width: `${(Math.abs(b.value) / max) * 100}%`, background: b.color ?? (b.value < 0 ? NEG : POS) }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Vertical bars (a histogram when the labels are ranges), with a zero line when values go negative. */
export function VBars({ bars, label, height = 180 }: { bars: Bar[]; label: string; height?: number }) {
  const rows = bars.map((b) => ({ ...b, v: b.value ?? 0 }));
  if (rows.every((b) => b.v === 0)) return <NoData />;
  const hi = maxOf(rows.map((b) => b.v), 0);
  const lo = minOf(rows.map((b) => b.v), 0);
  const span = hi - lo || 1;
  const w = 100 / rows.length;
  const zero = (hi / span) * 100;
  return (
    <figure aria-label={label}>
      <svg viewBox="0 0 100 100" preserveAspectRatio="none" className="w-full" style={{ height }} role="img" aria-label={label}>
        {rows.map((b, i) => {
          const h = (Math.abs(b.v) / span) * 100;
          const y = b.v >= 0 ? zero - h : zero;
          return (
            <rect key={b.label} x={i * w + w * 0.15} width={w * 0.7} y={y} height={Math.max(h, 0.5)} fill={b.color ?? (b.v < 0 ? NEG : '#3b82f6')}>
              <title>{b.title ?? `${b.label}: ${b.text ?? b.v}`}</title>
            </rect>
          );
        })}
        {lo < 0 && <line x1="0" x2="100" y1={zero} y2={zero} stroke="#94a3b8" strokeWidth="0.3" />}
      </svg>
      <figcaption className="mt-1 flex text-[10px] text-slate-500 dark:text-slate-400">
        {rows.map((b) => (
          <span key={b.label} className="truncate text-center" style={{ width: `${w}%` }} title={`${b.label}: ${b.text ?? b.v}`}>
            {b.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

const PALETTE = ['#3b82f6', '#10b981', '#f59e0b', '#8b5cf6', '#ef4444', '#06b6d4', '#ec4899', '#84cc16'];

/** A donut of shares, with a legend. */
export function Donut({ slices, label }: { slices: Bar[]; label: string }) {
  const rows = slices.filter((s) => s.value !== null && s.value > 0) as (Bar & { value: number })[];
  const total = rows.reduce((a, s) => a + s.value, 0);
  if (rows.length === 0 || total <= 0) return <NoData />;
  const r = 15.9155; // circumference 100
  let offset = 25;
  return (
    <div className="flex flex-wrap items-center gap-6">
      <svg viewBox="0 0 42 42" className="h-40 w-40" role="img" aria-label={label}>
        {rows.map((s, i) => {
          const share = (s.value / total) * 100;
          const el = (
            <circle key={s.label} cx="21" cy="21" r={r} fill="transparent" stroke={s.color ?? PALETTE[i % PALETTE.length]} strokeWidth="6" strokeDasharray={`${share} ${100 - share}`} strokeDashoffset={offset}>
              <title>{`${s.label}: ${s.text ?? formatShare(share)}`}</title>
            </circle>
          );
          offset -= share;
          return el;
        })}
      </svg>
      <ul className="space-y-1 text-sm">
        {rows.map((s, i) => (
          <li key={s.label} className="flex items-center gap-2">
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: s.color ?? PALETTE[i % PALETTE.length] }} />
            <span>{s.label}</span>
            <span className="tabular-nums text-slate-500 dark:text-slate-400">{s.text ?? formatShare((s.value / total) * 100)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface Stack {
  label: string;
  segments: { key: string; value: number; text: string }[];
}

/** One colour per asset on every analytics chart; cash (USD) grey. */
const ASSET_COLORS: Record<string, string> = { 'BTC-USD': '#f59e0b', 'ETH-USD': '#3b82f6', 'ADA-USD': '#10b981', 'SOL-USD': '#8b5cf6', USD: '#94a3b8' };

export function assetColor(asset: string, i = 0): string {
  return ASSET_COLORS[asset] ?? PALETTE[i % PALETTE.length]!;
}

/** The colour of each key, in order of first appearance. */
function keyColors(stacks: Stack[]): Map<string, string> {
  const colors = new Map<string, string>();
  for (const s of stacks) {
    for (const g of s.segments) {
      if (!colors.has(g.key)) colors.set(g.key, assetColor(g.key, colors.size));
    }
  }
  return colors;
}

/** 100% stacked columns, one per label (a day), each segment a share; hovering a segment shows its figures, the legend the last column's shares. */
export function StackedBars({ stacks, label, height = 180, testId }: { stacks: Stack[]; label: string; height?: number; testId?: string }) {
  const cols = stacks.map((s) => ({ ...s, total: s.segments.reduce((a, g) => a + Math.max(g.value, 0), 0) })).filter((s) => s.total > 0);
  if (cols.length === 0) return <NoData />;
  const colors = keyColors(cols);
  const w = 100 / cols.length;
  // A column is at most 8% of the width, so a few days do not become slabs.
  const bw = Math.min(w * 0.8, 8);
  const ticks = [...new Set([0, Math.floor((cols.length - 1) / 2), cols.length - 1])];
  const last = new Map(cols.at(-1)!.segments.map((g) => [g.key, (Math.max(g.value, 0) / cols.at(-1)!.total) * 100]));
  return (
    <figure aria-label={label} data-testid={testId}>
      <svg viewBox="0 0 100 100" preserveAspectRatio="none" className="w-full" style={{ height }} role="img" aria-label={label}>
        {cols.map((c, i) => {
          let y = 100;
          return c.segments.map((g) => {
            const h = (Math.max(g.value, 0) / c.total) * 100;
            y -= h;
            return (
              <rect key={`${c.label}-${g.key}`} x={i * w + (w - bw) / 2} width={bw} y={y} height={h} fill={colors.get(g.key)} data-asset={g.key}>
                <title>{`${c.label} ${g.key}: ${g.text}`}</title>
              </rect>
            );
          });
        })}
      </svg>
      <figcaption className="mt-1 text-[10px] text-slate-500 dark:text-slate-400">
        <div className="relative h-3">
          {ticks.map((t) => (
            <span key={t} className="absolute -translate-x-1/2 whitespace-nowrap" style={{ left: `${Math.min(Math.max((t + 0.5) * w, 6), 94)}%` }}>
              {cols[t]!.label}
            </span>
          ))}
        </div>
        <ul className="mt-2 flex flex-wrap gap-3 text-xs">
          {[...colors.entries()].map(([k, c]) => (
            <li key={k} className="flex items-center gap-1">
              <span className="inline-block h-2 w-3 rounded-sm" style={{ background: c }} />
              {k === 'USD' ? 'Cash (USD)' : k}
              <span className="tabular-nums">{last.has(k) ? formatShare(last.get(k)!, 2) : '—'}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
