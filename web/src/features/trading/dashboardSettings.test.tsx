import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { AreaSeries, CandlestickSeries, LineSeries } from 'lightweight-charts';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Dashboard from './routes/Dashboard';

// The chart library draws on a canvas jsdom lacks: a stand-in chart keeps
// the kinds of series it was asked to add.
const added: unknown[] = [];
vi.mock('@/components/chart', async (orig) => {
  const series = { applyOptions() {}, setData() {}, update() {}, createPriceLine: () => ({}), removePriceLine() {} };
  const chart = {
    addSeries: (kind: unknown) => {
      added.push(kind);
      return series;
    },
    timeScale: () => ({ applyOptions() {}, fitContent() {} }),
  };
  return { ...(await orig<object>()), createThemedChart: () => ({ chart, dispose() {} }), fitWhileSizing: () => () => {} };
});
vi.mock('lightweight-charts', async (orig) => ({ ...(await orig<object>()), createSeriesMarkers: () => ({ setMarkers() {} }) }));

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** Answers with the given ui settings; every URL asked for is kept. */
function serve(ui: object) {
  const fetchMock = vi.fn(async (url: string) => {
    const path = url.replace(/^\/api/, '').split('?')[0]!;
    if (path === '/settings') return ok({ settings: { ui } });
    if (path === '/trading/history') return ok({ trades: [], total: 0, limit: 10, offset: 0 });
    if (path.startsWith('/market-data/candles/')) return ok({ symbol: 'BTC-USD', granularity: 'ONE_HOUR', candles: [] });
    return new Response(JSON.stringify({ success: false, error: { code: 'not_found', message: `no ${path}` } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { urls: () => fetchMock.mock.calls.map((c) => String(c[0])) };
}

function renderDashboard() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <Dashboard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  added.length = 0;
});

describe('Dashboard settings', () => {
  it('shows or hides the metrics, the chart and the recent trades as the dashboard settings say', async () => {
    for (const [metrics, charts, trades] of [
      [false, true, false],
      [true, false, true],
    ] as const) {
      serve({ dashboard: { showMetrics: metrics, showCharts: charts, showRecentTrades: trades } });
      const view = renderDashboard();
      // The cards follow the settings once they have answered.
      await waitFor(() => expect(screen.queryByTestId('card-portfolio-value') !== null).toBe(metrics));
      await waitFor(() => expect(screen.queryByTestId('price-chart') !== null).toBe(charts));
      await waitFor(() => expect(screen.queryByText('Recent Trades') !== null).toBe(trades));
      expect(screen.getByTestId('watchlist')).toBeTruthy(); // no switch hides the watchlist
      view.unmount();
    }
  });

  it('refreshes every card at the dashboard refresh interval', async () => {
    // Each card's requests, whatever they answer: metrics, status, trading metrics, price, chart (candles, positions,
    // fills) and recent trades.
    const cards = ['/api/trading/performance', '/api/system/status', '/api/system/metrics', '/api/market-data/ticker/BTC-USD', '/api/market-data/candles/BTC-USD', '/api/trading/positions', '/api/trading/history?symbol=BTC-USD&', '/api/trading/history?limit=10&offset=0'];
    const asks = (net: ReturnType<typeof serve>) => cards.map((c) => [c, net.urls().filter((u) => u.startsWith(c)).length] as const);
    // Every second: three asks of each in about two seconds.
    const fast = serve({ dashboard: { refreshInterval: 1000 } });
    let view = renderDashboard();
    await waitFor(() => expect(asks(fast).filter(([, n]) => n < 3)).toEqual([]), { timeout: 4_000 });
    view.unmount();
    vi.unstubAllGlobals();
    // At the default (5 s), the same two and a half seconds bring no second ask of any.
    const slow = serve({});
    view = renderDashboard();
    await waitFor(() => expect(asks(slow).filter(([, n]) => n < 1)).toEqual([]));
    await new Promise((r) => setTimeout(r, 2_500));
    expect(asks(slow).filter(([, n]) => n > 1)).toEqual([]);
    view.unmount();
  }, 10_000);

  it('draws the chart type the settings choose: candlestick, line or area', async () => {
    for (const [type, kind] of [
      ['line', LineSeries],
      ['area', AreaSeries],
      ['candlestick', CandlestickSeries],
    ] as const) {
      serve({ charts: { type } });
      const view = renderDashboard();
      await waitFor(() => expect(added.at(-1)).toBe(kind));
      view.unmount();
      added.length = 0;
    }
  });
});
