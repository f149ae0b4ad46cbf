import { useQuery } from '@tanstack/react-query';
import { AreaSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { createThemedChart } from '@/components/chart';
import { ErrorBox } from '@/components/Field';
import { Card } from '@/components/Screen';
import { api, errorMessage } from '@/lib/api';
import { moneyAxis, toNum } from '@/lib/format';
import { tradeKeys } from '@/lib/queryKeys';

interface Point {
  timestamp: string;
  value: string;
  cash: string;
}

const RANGES = { '1D': 1, '1W': 7, '1M': 30 } as const;
type Range = keyof typeof RANGES;

/** One point per second (the last), ascending: what the chart library requires. */
export function toSeries(points: Point[]): { time: UTCTimestamp; value: number }[] {
  const bySecond = new Map<number, number>();
  for (const p of points) bySecond.set(Math.floor(new Date(p.timestamp).getTime() / 1000), toNum(p.value));
  return [...bySecond.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time: time as UTCTimestamp, value }));
}

/** The portfolio value recorded every minute and on every fill. */
export function PortfolioValueChart() {
  const [range, setRange] = useState<Range>('1D');
  const history = useQuery({
    queryKey: tradeKeys.portfolioHistory(range),
    queryFn: () => {
      const start = new Date(Date.now() - RANGES[range] * 86_400_000).toISOString();
      return api.get<{ points: Point[] }>(`/trading/portfolio/history?start=${encodeURIComponent(start)}&limit=10000`).then((d) => d.points);
    },
    refetchInterval: 60_000,
    staleTime: 0,
  });
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Area'> | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const { chart: c, dispose } = createThemedChart(box.current, { localization: { priceFormatter: moneyAxis } });
    chart.current = c;
    series.current = c.addSeries(AreaSeries, { lineColor: '#3b82f6', topColor: 'rgba(59,130,246,0.35)', bottomColor: 'rgba(59,130,246,0.02)', lineWidth: 2 });
    return () => {
      dispose();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    if (!series.current || !history.data) return;
    series.current.setData(toSeries(history.data));
    chart.current?.timeScale().fitContent();
  }, [history.data]);

  return (
    <Card
      title={
        <span className="flex items-center justify-between normal-case">
          <span className="uppercase">Portfolio Value</span>
          <span className="flex gap-1" role="group" aria-label="Range">
            {(Object.keys(RANGES) as Range[]).map((r) => (
              <button
                key={r}
                type="button"
                aria-pressed={range === r}
                onClick={() => setRange(r)}
                className={`rounded px-2 py-0.5 text-xs font-medium tracking-normal ${range === r ? 'bg-blue-600 text-white' : 'text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800'}`}
              >
                {r}
              </button>
            ))}
          </span>
        </span>
      }
    >
      {history.isError && <ErrorBox message={errorMessage(history.error, 'Failed to load portfolio history')} />}
      {history.data && history.data.length < 2 && (
        <p className="mb-2 text-sm text-slate-500 dark:text-slate-400">The value is recorded every minute and after every fill; the line grows as it is.</p>
      )}
      <div ref={box} className="h-64 w-full" data-testid="portfolio-value-chart" />
    </Card>
  );
}
