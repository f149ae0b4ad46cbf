import { LineSeries, LineStyle, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { createThemedChart, fitWhileSizing } from '@/components/chart';
import { thinSeries } from '@/lib/extent';
import { percentAxis } from '@/lib/format';
import { returnSeries } from '../overrides';
import type { BacktestReport } from '../types';

/** The colours of the compared runs, in order (A, B). */
export const RUN_COLORS = ['#3b82f6', '#f59e0b'];

/**
 * The equity curves of the compared runs on one chart, each as its return
 * since its start (runs of different capital compare), opened fitted to
 * the whole of every run.
 */
export function CompareEquity({ runs }: { runs: BacktestReport[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const { chart, dispose } = createThemedChart(box.current);
    runs.forEach((r, i) => {
      const s = chart.addSeries(LineSeries, {
        color: RUN_COLORS[i % RUN_COLORS.length],
        lineWidth: 2,
        title: `Run ${String.fromCharCode(65 + i)}`,
        priceFormat: { type: 'custom', formatter: percentAxis(2) },
      });
      s.setData(thinSeries(returnSeries(r), (p) => p.value).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      if (i === 0) s.createPriceLine({ price: 0, color: '#94a3b8', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: '' });
    });
    const unfit = fitWhileSizing(chart, box.current); // opens on the whole run
    return () => {
      unfit();
      dispose();
    };
  }, [runs]);
  return (
    <div>
      <div ref={box} className="h-64 w-full" data-testid="compare-equity-chart" />
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        Return since each run's start (equity at each candle's close over its initial capital):{' '}
        {runs.map((r, i) => (
          <span key={r.id} className="mr-2 font-medium" style={{ color: RUN_COLORS[i % RUN_COLORS.length] }}>
            Run {String.fromCharCode(65 + i)} · {r.id.slice(0, 8)}
          </span>
        ))}
      </p>
    </div>
  );
}
