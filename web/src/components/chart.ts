import { ColorType, createChart, type ChartOptions, type DeepPartial, type IChartApi } from 'lightweight-charts';

/** Chart colours for the current light/dark mode (a class on <html>). */
export function chartColors(): DeepPartial<ChartOptions> {
  const dark = document.documentElement.classList.contains('dark');
  return {
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: dark ? '#cbd5e1' : '#334155' },
    grid: { vertLines: { color: dark ? '#1e293b' : '#f1f5f9' }, horzLines: { color: dark ? '#1e293b' : '#f1f5f9' } },
  };
}

/**
 * A lightweight-charts chart in el, sized to it, following the light/dark
 * toggle. The library's attribution logo stays on (its default). dispose
 * removes the chart and stops following the theme.
 */
export function createThemedChart(el: HTMLElement, options: DeepPartial<ChartOptions> = {}): { chart: IChartApi; dispose: () => void } {
  const chart = createChart(el, { autoSize: true, ...chartColors(), timeScale: { timeVisible: true, secondsVisible: false }, ...options });
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
