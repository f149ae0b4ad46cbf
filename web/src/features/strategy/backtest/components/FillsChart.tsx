import { CandlestickSeries, createSeriesMarkers, type SeriesMarker, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi } from 'lightweight-charts';
import { chartTime, createThemedChart, fillMarkers, fitWhileSizing } from '@/components/chart';
import { ErrorBox } from '@/components/Field';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { useVisibleSpan, VisibleSpan } from '@/components/VisibleSpan';
import { errorMessage } from '@/lib/api';
import { priceAxis, toNum } from '@/lib/format';
import { timeframeLabel } from '@/lib/timeframe';
import { usePeriodCandles } from '../api';
import { chartGranularity } from '../model';
import type { BacktestReport } from '../types';

const LABEL: Record<string, string> = { stop_loss: 'SL', take_profit: 'TP', end_of_data: 'END' };

/** The period's candles at the strategy's timeframe, with a marker for every fill. */
export function FillsChart({ report }: { report: BacktestReport }) {
  const g = chartGranularity(report.assumptions.timeframe, report.start_date, report.end_date);
  const candles = usePeriodCandles(report.symbol, g, report.start_date, report.end_date);
  const box = useRef<HTMLDivElement>(null);
  const [chartApi, setChartApi] = useState<IChartApi | null>(null);
  const span = useVisibleSpan(chartApi);
  const fills = report.fills;
  const data = useMemo(() => {
    const cs = (candles.data ?? []).map((k) => ({ time: chartTime(k.timestamp) as UTCTimestamp, open: toNum(k.open), high: toNum(k.high), low: toNum(k.low), close: toNum(k.close) }));
    const markers: SeriesMarker<UTCTimestamp>[] = fillMarkers(fills ?? [], cs.map((c) => c.time)).map((m) =>
      m.side === 'BUY'
        ? { time: m.time as UTCTimestamp, position: 'belowBar', color: '#10b981', shape: 'arrowUp', text: LABEL[m.reason] ?? '' }
        : { time: m.time as UTCTimestamp, position: 'aboveBar', color: '#ef4444', shape: 'arrowDown', text: LABEL[m.reason] ?? '' },
    );
    return { cs, markers };
  }, [candles.data, fills]);

  useEffect(() => {
    if (!box.current || data.cs.length === 0) return;
    const { chart, dispose } = createThemedChart(box.current, { localization: { priceFormatter: priceAxis(report.symbol) } });
    const series = chart.addSeries(CandlestickSeries, { upColor: '#10b981', downColor: '#ef4444', borderVisible: false, wickUpColor: '#10b981', wickDownColor: '#ef4444' });
    series.setData(data.cs);
    createSeriesMarkers(series, data.markers);
    const unfit = fitWhileSizing(chart, box.current); // opens on the whole run
    setChartApi(chart);
    return () => {
      setChartApi(null);
      unfit();
      dispose();
    };
  }, [data, report.symbol]);

  const buys = (fills ?? []).filter((f) => f.side === 'BUY').length;
  return (
    <Card title={`${report.symbol} Price and Fills · ${timeframeLabel(g)} candles`}>
      {candles.isError && <ErrorBox message={`Failed to load chart data: ${errorMessage(candles.error, 'Unknown error')}`} />}
      {candles.isPending && <Spinner />}
      <div ref={box} className="h-80 w-full" data-testid="fills-chart" />
      {data.cs.length > 0 && (
        <VisibleSpan span={span} first={data.cs[0]!.time} last={data.cs[data.cs.length - 1]!.time} onFit={() => chartApi?.timeScale().fitContent()} testId="fills-span" />
      )}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-emerald-600 dark:text-emerald-400">▲ {buys} buys</span> · <span className="text-red-600 dark:text-red-400">▼ {(fills ?? []).length - buys} sells</span> (SL stop-loss, TP
        take-profit, END sold at the end of the data)
      </p>
    </Card>
  );
}
