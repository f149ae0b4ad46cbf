import { AreaSeries, createSeriesMarkers, LineSeries, LineStyle, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi } from 'lightweight-charts';
import { chartTime, createThemedChart, fitWhileSizing } from '@/components/chart';
import { Card } from '@/components/Screen';
import { useVisibleSpan, VisibleSpan } from '@/components/VisibleSpan';
import { thinSeries } from '@/lib/extent';
import { formatCount, formatDateTime, formatShare, moneyAxis, percentAxis, toNum } from '@/lib/format';
import type { BacktestReport, EquityPoint } from '../types';

type Halt = NonNullable<BacktestReport['halted']>;

/**
 * The points to draw, one per time, in time order, at most about 4,000 (a report stored before the server thinned
 * its curve can hold one per one-minute candle: min/max per bucket here too, the halt's point kept).
 */
export function chartRows(points: EquityPoint[], haltAt?: string): [number, EquityPoint][] {
  const byTime = new Map<number, EquityPoint>();
  for (const p of points) byTime.set(chartTime(p.time), p);
  const rows = [...byTime.entries()].sort((a, b) => a[0] - b[0]);
  const thin = thinSeries(rows, ([, p]) => toNum(p.equity));
  if (haltAt && thin.length < rows.length) {
    const t = chartTime(haltAt);
    const at = rows.find(([rt]) => rt === t);
    if (at && !thin.some(([rt]) => rt === t)) thin.splice(thin.findIndex(([rt]) => rt > t), 0, at);
  }
  return thin;
}

/** Equity at each candle's close (area) and the drawdown below its peak (red band underneath); a halt marked where it began. */
export function EquityChart({ points, initial, maxDrawdown, total, halted }: { points: EquityPoint[]; initial: string; maxDrawdown: number; total?: number; halted?: Halt | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [chartApi, setChartApi] = useState<IChartApi | null>(null);
  const span = useVisibleSpan(chartApi);
  const haltAt = halted?.at;
  const rows = useMemo(() => chartRows(points, haltAt), [points, haltAt]);
  const bounds = rows.length ? { first: rows[0]![0], last: rows[rows.length - 1]![0] } : null;
  /** The whole curve's points: the server's count when it thinned the curve, else those sent. */
  const whole = Math.max(total ?? 0, points.length);
  useEffect(() => {
    if (!box.current) return;
    // Equity above, drawdown in a band below it on its own (unlabelled) scale.
    const { chart, dispose } = createThemedChart(box.current, { rightPriceScale: { scaleMargins: { top: 0.05, bottom: 0.3 } } });
    const equity = chart.addSeries(AreaSeries, { lineColor: '#3b82f6', topColor: 'rgba(59,130,246,0.35)', bottomColor: 'rgba(59,130,246,0.02)', lineWidth: 2, title: 'Equity', priceFormat: { type: 'custom', formatter: moneyAxis } });
    const dd = chart.addSeries(LineSeries, { priceScaleId: 'drawdown', color: '#ef4444', lineWidth: 1, lastValueVisible: false, priceLineVisible: false, priceFormat: { type: 'custom', formatter: percentAxis(1) } });
    chart.priceScale('drawdown').applyOptions({ scaleMargins: { top: 0.78, bottom: 0.02 } });
    equity.setData(rows.map(([t, p]) => ({ time: t as UTCTimestamp, value: toNum(p.equity) })));
    dd.setData(rows.map(([t, p]) => ({ time: t as UTCTimestamp, value: -p.drawdown * 100 })));
    equity.createPriceLine({ price: toNum(initial), color: '#94a3b8', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: 'Start' });
    if (haltAt) {
      // On the first point at or after the halt's start (the server keeps that point in a thinned curve).
      const t = chartTime(haltAt);
      const at = rows.find(([rt]) => rt >= t)?.[0];
      if (at !== undefined) createSeriesMarkers(equity, [{ time: at as UTCTimestamp, position: 'aboveBar', color: '#dc2626', shape: 'arrowDown', text: 'Halted' }]);
    }
    const unfit = fitWhileSizing(chart, box.current); // opens on the whole run
    setChartApi(chart);
    return () => {
      setChartApi(null);
      unfit();
      dispose();
    };
  }, [rows, initial, haltAt]);
  return (
    <Card title="Equity Curve">
      <div ref={box} className="h-72 w-full" data-testid="equity-chart" />
      {bounds && <VisibleSpan span={span} first={bounds.first} last={bounds.last} onFit={() => chartApi?.timeScale().fitContent()} testId="equity-span" />}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-blue-600 dark:text-blue-400">Equity</span> at each candle's close, dashed at the starting capital;{' '}
        <span className="text-red-600 dark:text-red-400">drawdown</span> below the peak underneath (deepest {formatShare(maxDrawdown * 100, 2)}).
        {rows.length < whole && (
          <span data-testid="equity-thinned">
            {' '}
            Drawn from {formatCount(rows.length)} of its {formatCount(whole)} points: the highest and lowest of each stretch.
          </span>
        )}
      </p>
      {halted && (
        <p className="mt-1 text-xs font-medium text-red-700 dark:text-red-400" data-testid="equity-halt">
          ▼ Halted {formatDateTime(halted.at)}: {halted.reason}; no position opened after it.
        </p>
      )}
    </Card>
  );
}
