import { AreaSeries, CandlestickSeries, LineSeries, type IChartApi, type ISeriesApi, type SeriesType, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { createThemedChart } from '@/components/chart';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { toNum } from '@/lib/format';
import { useChartPrefs } from '@/lib/prefs';
import { useCandles } from '../api';
import { timeframeLabel } from '@/lib/timeframe';

/** The last 100 candles (hourly candlesticks by default; type and timeframe follow the settings), refreshed every 60 s. */
export function PriceChart({ symbol }: { symbol: string }) {
  const prefs = useChartPrefs();
  const candles = useCandles(symbol, 100, prefs.timeframe);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<SeriesType> | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const { chart: c, dispose } = createThemedChart(box.current);
    chart.current = c;
    series.current =
      prefs.type === 'line'
        ? c.addSeries(LineSeries, { color: '#3b82f6', lineWidth: 2 })
        : prefs.type === 'area'
          ? c.addSeries(AreaSeries, { lineColor: '#3b82f6', topColor: 'rgba(59,130,246,0.35)', bottomColor: 'rgba(59,130,246,0.02)', lineWidth: 2 })
          : c.addSeries(CandlestickSeries, { upColor: '#10b981', downColor: '#ef4444', borderVisible: false, wickUpColor: '#10b981', wickDownColor: '#ef4444' });
    return () => {
      dispose();
      chart.current = null;
      series.current = null;
    };
  }, [prefs.type]);

  useEffect(() => {
    if (!series.current || !candles.data) return;
    const time = (ts: string) => Math.floor(new Date(ts).getTime() / 1000) as UTCTimestamp;
    if (prefs.type === 'line' || prefs.type === 'area') {
      series.current.setData(candles.data.map((k) => ({ time: time(k.timestamp), value: toNum(k.close) })));
    } else {
      series.current.setData(candles.data.map((k) => ({ time: time(k.timestamp), open: toNum(k.open), high: toNum(k.high), low: toNum(k.low), close: toNum(k.close) })));
    }
    chart.current?.timeScale().fitContent();
  }, [candles.data, prefs.type]);

  return (
    <Card title={`${symbol} Price Chart · ${timeframeLabel(prefs.timeframe)}`}>
      {candles.isError && (
        <p role="alert" className="mb-2 text-sm text-red-600 dark:text-red-400">
          Failed to load chart data: {candles.error instanceof Error && candles.error.message ? candles.error.message : 'Unknown error'}
        </p>
      )}
      {candles.isPending && <Spinner />}
      <div ref={box} className="h-80 w-full" data-testid="price-chart" />
    </Card>
  );
}
