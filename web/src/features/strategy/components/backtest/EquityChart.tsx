import { AreaSeries, LineSeries, LineStyle, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi } from 'lightweight-charts';
import { chartTime, createThemedChart, fitWhileSizing } from '@/components/chart';
import { Card } from '@/components/Screen';
import { useVisibleSpan, VisibleSpan } from '@/components/VisibleSpan';
import { formatShare, moneyAxis, percentAxis, toNum } from '@/lib/format';
import type { EquityPoint } from '../../backtestTypes';

/** Equity at each candle's close (area) and the drawdown below its peak (red band underneath). */
export function EquityChart({ points, initial, maxDrawdown }: { points: EquityPoint[]; initial: string; maxDrawdown: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [chartApi, setChartApi] = useState<IChartApi | null>(null);
  const span = useVisibleSpan(chartApi);
  const bounds = useMemo(() => {
    const ts = points.map((p) => chartTime(p.time));
    return ts.length ? { first: Math.min(...ts), last: Math.max(...ts) } : null;
  }, [points]);
  useEffect(() => {
    if (!box.current) return;
    // Equity above, drawdown in a band below it on its own (unlabelled) scale.
    const { chart, dispose } = createThemedChart(box.current, { rightPriceScale: { scaleMargins: { top: 0.05, bottom: 0.3 } } });
    const equity = chart.addSeries(AreaSeries, { lineColor: '#3b82f6', topColor: 'rgba(59,130,246,0.35)', bottomColor: 'rgba(59,130,246,0.02)', lineWidth: 2, title: 'Equity', priceFormat: { type: 'custom', formatter: moneyAxis } });
    const dd = chart.addSeries(LineSeries, { priceScaleId: 'drawdown', color: '#ef4444', lineWidth: 1, lastValueVisible: false, priceLineVisible: false, priceFormat: { type: 'custom', formatter: percentAxis(1) } });
    chart.priceScale('drawdown').applyOptions({ scaleMargins: { top: 0.78, bottom: 0.02 } });
    const byTime = new Map<number, EquityPoint>();
    for (const p of points) byTime.set(chartTime(p.time), p);
    const rows = [...byTime.entries()].sort((a, b) => a[0] - b[0]);
    equity.setData(rows.map(([t, p]) => ({ time: t as UTCTimestamp, value: toNum(p.equity) })));
    dd.setData(rows.map(([t, p]) => ({ time: t as UTCTimestamp, value: -p.drawdown * 100 })));
    equity.createPriceLine({ price: toNum(initial), color: '#94a3b8', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: 'Start' });
    const unfit = fitWhileSizing(chart, box.current); // opens on the whole run
    setChartApi(chart);
    return () => {
      setChartApi(null);
      unfit();
      dispose();
    };
  }, [points, initial]);
  return (
    <Card title="Equity Curve">
      <div ref={box} className="h-72 w-full" data-testid="equity-chart" />
      {bounds && <VisibleSpan span={span} first={bounds.first} last={bounds.last} onFit={() => chartApi?.timeScale().fitContent()} testId="equity-span" />}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-blue-600 dark:text-blue-400">Equity</span> at each candle's close, dashed at the starting capital;{' '}
        <span className="text-red-600 dark:text-red-400">drawdown</span> below the peak underneath (deepest {formatShare(maxDrawdown * 100, 2)}).
      </p>
    </Card>
  );
}
