import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportAnswer, reportLost } from '@/lib/connection';
import type { Position, Ticker, Trade } from '@/lib/types';
import type { CanvasProps } from './components/CandleCanvas';
import Dashboard from './routes/Dashboard';
import { productsAnswer } from '@/test/products';

// The chart library needs a canvas: the drawing is replaced by what it was asked to draw.
vi.mock('./components/CandleCanvas', () => ({
  CandleCanvas: (p: CanvasProps) => (
    <div data-testid="canvas">
      {p.bars.length} bars, {p.barSeconds} s; lines: {p.levels.map((l) => l.title).join(', ')}; markers: {p.markers.map((m) => m.text).join(', ')}; live {p.tick?.price ?? 'none'}
    </div>
  ),
}));

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

const ticker = (symbol: string, price: string): Ticker => ({ symbol, price, bid: price, ask: price, volume_24h: '10', timestamp: '2026-05-10T12:30:00Z' });
const PRICES: Record<string, [string, string]> = { 'BTC-USD': ['60000', '59000'], 'ETH-USD': ['2400', '2500'], 'ADA-USD': ['0.45', '0.45'], 'SOL-USD': ['150', '120'] };
const candle = (ts: string, close: string) => ({ timestamp: ts, open: close, high: close, low: close, close, volume: '1' });
const ethPosition: Position = {
  symbol: 'ETH-USD',
  quantity: '0.5',
  avg_price: '2390',
  current_price: '2400',
  unrealized_pnl: '5',
  realized_pnl: '0',
  current_value: '1200',
  pnl_percentage: '0.42',
  protection: [{ order_id: 's1', kind: 'stop_loss', price: '2270.5', quantity: '0.5', protective: true }],
};

const ethFill: Trade = {
  id: 'f1',
  order_id: 'o1',
  symbol: 'ETH-USD',
  side: 'BUY',
  order_type: 'market',
  quantity: '0.5',
  price: '2385',
  total_value: '1192.5',
  fee: '2.5',
  status: 'executed',
  strategy: 'manual',
  timestamp: '2026-05-10T12:20:00Z',
  liquidity: 'taker',
  protective: false,
  realized_pnl: null,
};

/** Answers as the server would; every URL asked for is kept. */
function serve() {
  const fetchMock = vi.fn(async (url: string) => {
    const path = url.replace(/^\/api/, '').split('?')[0]!;
    const sym = path.split('/').pop()!;
    if (path.startsWith('/market-data/ticker/')) return ok(ticker(sym, PRICES[sym]![0]));
    if (path.startsWith('/market-data/stats/')) return ok({ symbol: sym, open: PRICES[sym]![1], high: '0', low: '0', last: PRICES[sym]![0], volume: '1' });
    if (path.startsWith('/market-data/candles/')) return ok({ symbol: sym, granularity: 'x', candles: [candle('2026-05-10T11:00:00Z', '1'), candle('2026-05-10T12:00:00Z', '2')] });
    if (path === '/market-data/products') return ok(productsAnswer);
    if (path === '/trading/positions') return ok({ positions: [ethPosition] });
    if (path === '/trading/history') return ok({ trades: url.includes('symbol=ETH-USD') ? [ethFill] : [], total: 0, limit: 100, offset: 0 });
    return new Response(JSON.stringify({ success: false, error: { code: 'not_found', message: `no ${path}` } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { urls: () => fetchMock.mock.calls.map((c) => String(c[0])) };
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderDashboard(entry = '/dashboard') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[entry]}>
        <Dashboard />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  act(() => reportAnswer());
});

describe('Dashboard chart: symbol and timeframe', () => {
  it('asks for the chosen symbol and timeframe and keeps them in the link', async () => {
    const net = serve();
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByText('BTC-USD Price Chart · 1 hour');
    expect(net.urls()).toContain('/api/market-data/candles/BTC-USD?granularity=ONE_HOUR&limit=100');

    await within(screen.getByLabelText('Symbol')).findByRole('option', { name: 'ETH-USD' }); // the symbols come from the server
    await user.selectOptions(screen.getByLabelText('Symbol'), 'ETH-USD');
    await user.click(within(screen.getByRole('group', { name: 'Timeframe' })).getByRole('button', { name: '15m' }));
    await screen.findByText('ETH-USD Price Chart · 15 minutes');
    await waitFor(() => expect(net.urls()).toContain('/api/market-data/candles/ETH-USD?granularity=FIFTEEN_MINUTE&limit=100'));
    expect(screen.getByTestId('where').textContent).toBe('/dashboard?symbol=ETH-USD&tf=15m');
    expect(screen.getByRole('button', { name: '15m' }).getAttribute('aria-pressed')).toBe('true');
    // The account's fills on that symbol, for the markers.
    expect(net.urls()).toContain('/api/trading/history?symbol=ETH-USD&limit=100&offset=0');
    expect(screen.getByTestId('canvas').textContent).toContain('2 bars, 900 s');
    // The live price drawn into the last bar is the chosen symbol's.
    await waitFor(() => expect(screen.getByTestId('canvas').textContent).toContain('live 2400'));
  });

  it('opens a link on its symbol and timeframe, with the open position drawn as labelled lines', async () => {
    const net = serve();
    renderDashboard('/dashboard?symbol=ETH-USD&tf=4h');
    await screen.findByText('ETH-USD Price Chart · 4 hours');
    // 4 hours are built from 1-hour candles.
    expect(net.urls()).toContain('/api/market-data/candles/ETH-USD?granularity=ONE_HOUR&limit=300');
    await waitFor(() => expect(screen.getByTestId('canvas').textContent).toContain('lines: Entry 0.5, SL 0.5'));
    expect(screen.getByTestId('chart-level-entry').textContent).toContain('Entry 0.5 @ $2,390.00');
    expect(screen.getByTestId('chart-level-stop_loss').textContent).toContain('SL 0.5 @ $2,270.50');
    // The account's fill on ETH-USD, marked on its candle.
    await waitFor(() => expect(screen.getByTestId('canvas').textContent).toContain('markers: BUY;'));
    expect(screen.getByTestId('chart-legend').textContent).toContain('1 of your fills');
  });
});

describe('Watchlist', () => {
  it('lists the four markets with their live price and 24-hour change, and switches the chart', async () => {
    serve();
    const user = userEvent.setup();
    renderDashboard();
    const list = await screen.findByTestId('watchlist');
    const rows = within(list).getAllByRole('button');
    expect(rows.map((r) => r.firstElementChild?.textContent)).toEqual(['BTC-USD', 'ETH-USD', 'ADA-USD', 'SOL-USD']);
    const eth = screen.getByTestId('watch-ETH-USD');
    await within(eth).findByText('-4.00% 24h');
    expect(within(eth).getByTestId('watch-price').textContent).toBe('$2,400.00');
    await within(screen.getByTestId('watch-SOL-USD')).findByText('+25.00% 24h');
    expect(screen.getByTestId('watch-BTC-USD').getAttribute('aria-pressed')).toBe('true');

    await user.click(eth);
    await screen.findByText('ETH-USD Price Chart · 1 hour');
    expect(eth.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('where').textContent).toBe('/dashboard?symbol=ETH-USD&tf=1h');
  });

  it('greys the prices and says they are last known while the server does not answer, and recovers with it', async () => {
    serve();
    renderDashboard();
    const eth = await screen.findByTestId('watch-ETH-USD');
    await within(eth).findByText('$2,400.00');
    expect(screen.queryByTestId('watchlist-stale')).toBeNull();

    act(() => reportLost(Date.parse('2026-05-10T12:31:00Z')));
    expect(screen.getByTestId('watchlist-stale').textContent).toContain('Last known prices: no answer from the server since 05/10/2026, 12:31:00');
    expect(eth.getAttribute('data-stale')).toBe('true');
    expect(within(eth).getByTestId('watch-price').className).toContain('text-slate-400');
    expect(within(eth).getByText('(last known)')).toBeTruthy();

    act(() => reportAnswer());
    expect(screen.queryByTestId('watchlist-stale')).toBeNull();
    expect(eth.getAttribute('data-stale')).toBe('false');
  });
});
