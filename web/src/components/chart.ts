import { ColorType, createChart, TickMarkType, type ChartOptions, type DeepPartial, type IChartApi, type Time } from 'lightweight-charts';
import { displayPrefs, timeLabel, timeTick, type TickKind } from '@/lib/format';

/** Chart colours for the current light/dark mode (a class on <html>). */
export function chartColors(): DeepPartial<ChartOptions> {
  const dark = document.documentElement.classList.contains('dark');
  return {
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: dark ? '#cbd5e1' : '#334155' },
    grid: { vertLines: { color: dark ? '#1e293b' : '#f1f5f9' }, horzLines: { color: dark ? '#1e293b' : '#f1f5f9' } },
  };
}

const TICK_KIND: Record<TickMarkType, TickKind> = {
  [TickMarkType.Year]: 'year',
  [TickMarkType.Month]: 'month',
  [TickMarkType.DayOfMonth]: 'day',
  [TickMarkType.Time]: 'time',
  [TickMarkType.TimeWithSeconds]: 'seconds',
};

/** A chart time (unix seconds here; a business day or 'YYYY-MM-DD' if a caller passes one) as unix seconds. */
function seconds(t: Time): number {
  if (typeof t === 'number') return t;
  if (typeof t === 'string') return Date.parse(`${t}T00:00:00Z`) / 1000;
  return Date.UTC(t.year, t.month - 1, t.day) / 1000;
}

/**
 * The time axis and crosshair in the display settings' date order, clock and
 * time zone. A chart of days (timeVisible false: one point per UTC day) is
 * labelled by those days, wherever the reader is.
 */
export function timeAxisOptions(timeVisible: boolean): DeepPartial<ChartOptions> {
  const zone = () => (timeVisible ? displayPrefs() : { ...displayPrefs(), timezone: 'UTC' });
  return {
    localization: { timeFormatter: (t: Time) => timeLabel(seconds(t), timeVisible, zone()) },
    timeScale: { timeVisible, secondsVisible: false, tickMarkFormatter: (t: Time, kind: TickMarkType) => timeTick(seconds(t), TICK_KIND[kind], zone()) },
  };
}

/**
 * A lightweight-charts chart in el, sized to it, following the light/dark
 * toggle, its time axis in the display settings (timeAxisOptions). The
 * library's attribution logo stays on (its default). Values are labelled by
 * each series' priceFormat or options.localization.priceFormatter: callers
 * pass a formatter from lib/format so axes read like the rest of the screen.
 * dispose removes the chart and stops following the theme.
 */
export function createThemedChart(el: HTMLElement, options: DeepPartial<ChartOptions> = {}, timeVisible = true): { chart: IChartApi; dispose: () => void } {
  const axis = timeAxisOptions(timeVisible);
  const chart = createChart(el, {
    autoSize: true,
    ...chartColors(),
    ...options,
    localization: { ...axis.localization, ...options.localization },
    timeScale: { ...axis.timeScale, ...options.timeScale },
  });
  const themeWatch = new MutationObserver(() => chart.applyOptions(chartColors()));
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return {
    chart,
    dispose: () => {
      themeWatch.disconnect();
      chart.remove();
    },
  };
}

/** Unix seconds, the time type of every chart here. */
export function chartTime(iso: string): number {
  return Math.floor(new Date(iso).getTime() / 1000);
}

/**
 * Keeps chart fitted to all its data while el changes size: an autoSize
 * chart gets its real width only after the first layout, so a fitContent
 * called at creation fits a default width and opens on the last part of a
 * long run; and the bars may be packed as tightly as the run needs. Until
 * the reader scrolls or zooms, every new width refits.
 * Returns the function that stops watching.
 */
export function fitWhileSizing(chart: IChartApi, el: HTMLElement): () => void {
  // The library will not squeeze bars closer than minBarSpacing (0.5 px by
  // default): a year of hourly candles on a phone would be cut to its last
  // weeks. A run is read whole first, zoomed after.
  chart.timeScale().applyOptions({ minBarSpacing: 0.001 });
  chart.timeScale().fitContent();
  if (typeof ResizeObserver === 'undefined') return () => {};
  let width = 0;
  let touched = false;
  const touch = () => {
    touched = true;
  };
  el.addEventListener('wheel', touch, { passive: true });
  el.addEventListener('pointerdown', touch);
  const ro = new ResizeObserver((entries) => {
    const w = entries[0]?.contentRect.width ?? 0;
    if (touched || w === width || w === 0) return;
    width = w;
    // After the chart has taken the new size (its own observer runs too).
    requestAnimationFrame(() => chart.timeScale().fitContent());
  });
  ro.observe(el);
  return () => {
    ro.disconnect();
    el.removeEventListener('wheel', touch);
    el.removeEventListener('pointerdown', touch);
  };
}

/** A fill to mark on a chart: its time (ISO), side and why it happened ('' for an ordinary order). */
export interface MarkedFill {
  time: string;
  side: 'BUY' | 'SELL';
  reason: string;
}

export interface Marker {
  time: number;
  side: 'BUY' | 'SELL';
  reason: string;
}

/**
 * Fills as chart markers, each on the candle it falls in (the latest candle
 * opening at or before it), sorted by time as the chart requires. Fills
 * before the first candle are left out.
 */
export function fillMarkers(fills: MarkedFill[], candleTimes: number[]): Marker[] {
  if (candleTimes.length === 0) return [];
  const out: Marker[] = [];
  for (const f of fills) {
    const t = Math.floor(Date.parse(f.time) / 1000);
    let lo = 0;
    let hi = candleTimes.length - 1;
    if (t < candleTimes[0]!) continue;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (candleTimes[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    out.push({ time: candleTimes[lo]!, side: f.side, reason: f.reason });
  }
  return out.sort((a, b) => a.time - b.time);
}
