import {
  AreaSeries,
  CandlestickSeries,
  createSeriesMarkers,
  LineSeries,
  LineStyle,
  type AutoscaleInfoProvider,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { createThemedChart, fitWhileSizing } from '@/components/chart';
import { formatPrice } from '@/lib/format';
import { liveBar, widenRange, type Bar, type ChartMarker, type PriceLevel } from '../chartModel';

export interface CanvasProps {
  bars: Bar[];
  /** candlestick, line or area (the chart settings) */
  type: string;
  levels: PriceLevel[];
  markers: ChartMarker[];
  /** The live price and its time (Unix seconds), drawn into the last bar. */
  tick: { price: number; at: number } | null;
  /** The width of one bar in seconds. */
  barSeconds: number;
  /** The market, whose price increment sets the axis's decimal places. */
  symbol?: string;
}

const point = (b: Bar, type: string) =>
  type === 'line' || type === 'area' ? { time: b.time as UTCTimestamp, value: b.close } : { time: b.time as UTCTimestamp, open: b.open, high: b.high, low: b.low, close: b.close };

function addSeries(c: IChartApi, type: string): ISeriesApi<SeriesType> {
  if (type === 'line') return c.addSeries(LineSeries, { color: '#3b82f6', lineWidth: 2 });
  if (type === 'area') return c.addSeries(AreaSeries, { lineColor: '#3b82f6', topColor: 'rgba(59,130,246,0.35)', bottomColor: 'rgba(59,130,246,0.02)', lineWidth: 2 });
  return c.addSeries(CandlestickSeries, { upColor: '#10b981', downColor: '#ef4444', borderVisible: false, wickUpColor: '#10b981', wickDownColor: '#ef4444' });
}

/** The lightweight-charts drawing of the price chart: bars, fill markers, labelled price lines and the live bar. */
export function CandleCanvas({ bars, type, levels, markers, tick, barSeconds, symbol }: CanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const market = useRef(symbol);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<SeriesType> | null>(null);
  const marks = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const lines = useRef<IPriceLine[]>([]);
  const prices = useRef<number[]>([]);
  const last = useRef<Bar | undefined>(undefined);
  useEffect(() => {
    market.current = symbol;
  }, [symbol]);

  useEffect(() => {
    if (!box.current) return;
    // Axis and crosshair prices in the app's price format, to the places the shown market's increment needs.
    const { chart: c, dispose } = createThemedChart(box.current, { localization: { priceFormatter: (p: number) => formatPrice(p, market.current) } });
    // Room right of the last bar, so its fill marker's label is not under the price axis.
    c.timeScale().applyOptions({ rightOffset: 4 });
    const s = addSeries(c, type);
    // Scale to the candles and every price line, so a stop below the recent range stays in view.
    const widen: AutoscaleInfoProvider = (base) => {
      const info = base();
      return info && { ...info, priceRange: widenRange(info.priceRange, prices.current) };
    };
    s.applyOptions({ autoscaleInfoProvider: widen });
    chart.current = c;
    series.current = s;
    marks.current = createSeriesMarkers(s, []);
    // All 100 bars in view at any width (a phone too), until the reader scrolls or zooms.
    const unfit = fitWhileSizing(c, box.current);
    return () => {
      unfit();
      dispose();
      chart.current = null;
      series.current = null;
      marks.current = null;
      lines.current = [];
    };
  }, [type]);

  useEffect(() => {
    if (!series.current) return;
    series.current.setData(bars.map((b) => point(b, type)));
    last.current = bars[bars.length - 1];
    chart.current?.timeScale().fitContent();
  }, [bars, type]);

  useEffect(() => {
    marks.current?.setMarkers(markers.map((m) => ({ ...m, time: m.time as UTCTimestamp })));
  }, [markers, type]);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    for (const l of lines.current) s.removePriceLine(l);
    prices.current = levels.map((l) => l.price);
    lines.current = levels.map((l) =>
      s.createPriceLine({ price: l.price, color: l.color, lineWidth: 1, lineStyle: l.kind === 'entry' ? LineStyle.Solid : LineStyle.Dashed, axisLabelVisible: true, title: l.title }),
    );
  }, [levels, type]);

  useEffect(() => {
    if (!series.current || !tick) return;
    const b = liveBar(last.current, tick.price, tick.at, barSeconds);
    if (!b) return;
    series.current.update(point(b, type));
    last.current = b;
  }, [tick, barSeconds, type]);

  return <div ref={box} className="h-80 w-full" data-testid="price-chart" />;
}
