import { LineSeries, LineStyle, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartTime, createThemedChart } from '@/components/chart';
import { moneyAxis, toNum } from '@/lib/format';
import type { Sweep } from '../types';

/** The folds' out-of-sample curves chained (each fold starts where the previous ended). */
export function StitchedChart({ points, capital }: { points: NonNullable<Sweep['stitched_equity']>; capital: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current || points.length === 0) return;
    const { chart, dispose } = createThemedChart(box.current, { localization: { priceFormatter: moneyAxis } });
    const s = chart.addSeries(LineSeries, { color: '#f59e0b', lineWidth: 2, title: 'OOS equity' });
    const byTime = new Map<number, number>();
    for (const p of points) byTime.set(chartTime(p.time), toNum(p.equity));
    s.setData([...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ time: t as UTCTimestamp, value: v })));
    s.createPriceLine({ price: toNum(capital), color: '#94a3b8', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: 'Start' });
    chart.timeScale().fitContent();
    return dispose;
  }, [points, capital]);
  return <div ref={box} className="h-64 w-full" data-testid="stitched-chart" />;
}

