import { AreaSeries, HistogramSeries, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartTime, createThemedChart } from '@/components/chart';
import type { Num } from '../types';
import { formatNumber } from '@/lib/format';
import { num } from '../model';

export interface Series {
  name: string;
  kind: 'line' | 'area' | 'histogram';
  color: string;
  points: { date: string; value: Num }[];
  /** Histogram bars coloured by sign (green up, red down). */
  signed?: boolean;
}

/** One point per second, ascending, nulls left out: what the chart library requires. */
export function toPoints(points: { date: string; value: Num }[]): { time: UTCTimestamp; value: number }[] {
  const byTime = new Map<number, number>();
  for (const p of points) {
    const v = num(p.value);
    if (v !== null) byTime.set(chartTime(p.date), v);
  }
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time: time as UTCTimestamp, value }));
}

/** A time series chart (lightweight-charts): lines, areas and histograms on one price scale. */
export function TimeSeries({ series, format, testId, height = 'h-64' }: { series: Series[]; format?: (v: number) => string; testId: string; height?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const { chart, dispose } = createThemedChart(box.current, {}, false);
    // Every series labelled by lib/format (a plain figure unless the caller says what it is).
    const priceFormat = { type: 'custom' as const, formatter: format ?? ((v: number) => formatNumber(v)) };
    for (const s of series) {
      const data = toPoints(s.points);
      if (s.kind === 'histogram') {
        const h = chart.addSeries(HistogramSeries, { color: s.color, title: s.name, priceFormat });
        h.setData(data.map((d) => (s.signed ? { ...d, color: d.value < 0 ? '#ef4444' : '#10b981' } : d)));
      } else if (s.kind === 'area') {
        const a = chart.addSeries(AreaSeries, { lineColor: s.color, topColor: `${s.color}55`, bottomColor: `${s.color}05`, lineWidth: 2, title: s.name, priceFormat });
        a.setData(data);
      } else {
        const l = chart.addSeries(LineSeries, { color: s.color, lineWidth: 2, title: s.name, priceFormat });
        l.setData(data);
      }
    }
    chart.timeScale().fitContent();
    return dispose;
  }, [series, format]);
  return (
    <div>
      <div ref={box} className={`${height} w-full`} data-testid={testId} />
      {series.length > 1 && (
        <p className="mt-2 flex flex-wrap gap-3 text-xs text-slate-500 dark:text-slate-400">
          {series.map((s) => (
            <span key={s.name} className="flex items-center gap-1">
              <span className="inline-block h-2 w-3 rounded-sm" style={{ background: s.color }} />
              {s.name}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
