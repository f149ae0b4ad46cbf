import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarketDataManager } from './components/MarketDataManager';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const coverage = {
  coverage: [
    { symbol: 'BTC-USD', granularity: 'FIFTEEN_MINUTE', source: 'coinbase (shipped)', from: '2024-04-18T00:00:00Z', to: '2026-05-07T00:00:00Z', candles: 72000, gaps: [{ from: '2025-01-01T00:00:00Z', to: '2025-01-01T01:00:00Z' }] },
    { symbol: 'BTC-USD', granularity: 'ONE_HOUR', source: 'coinbase', from: '2026-08-27T00:00:00Z', to: '2026-11-25T00:00:00Z', candles: 2160, gaps: [] },
  ],
  backtests: [{ symbol: 'BTC-USD', from: '2024-04-18T00:00:00Z', to: '2026-11-25T00:00:00Z', sources: ['coinbase (shipped)', 'coinbase'], message: 'Market data for BTC-USD covers 2024-04-18 to 2026-11-24' }],
};
const running = {
  id: 'b1', status: 'running', progress: 0.42, created_at: '2026-11-25T00:00:00Z', symbol: 'BTC-USD', granularity: 'ONE_HOUR', start: '2026-08-27T00:00:00Z', end: '2026-11-25T00:00:00Z',
  source: 'coinbase', planned: 2160, cursor: '2026-09-30T00:00:00Z', requests: 3, fetched: 1050, written: 1050,
};
const gaps = { symbol: 'BTC-USD', granularity: 'ONE_HOUR', from: '2024-04-18T00:00:00Z', to: '2026-11-25T00:00:00Z', candles: 21000, source: 'coinbase, coinbase (shipped)', synthetic: false,
  gaps: [{ from: '2026-05-07T00:00:00Z', to: '2026-08-27T00:00:00Z' }] };

function serve(onPost: (body: unknown) => Response) {
  const posts: unknown[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (method === 'POST' && url === '/api/market-data/backfills') {
      const body: unknown = JSON.parse(String(init?.body));
      posts.push(body);
      return onPost(body);
    }
    if (method === 'POST' && url === '/api/market-data/backfills/b1/cancel') {
      posts.push('cancel');
      return json(200, { success: true, data: { ...running, status: 'cancelled' } });
    }
    if (url === '/api/market-data/coverage') return json(200, { success: true, data: coverage });
    if (url === '/api/market-data/backfills') return json(200, { success: true, data: [running] });
    if (url.startsWith('/api/market-data/gaps')) return json(200, { success: true, data: gaps });
    return json(500, { success: false, error: { code: 'internal', message: `unexpected ${method} ${url}` } });
  }));
  return posts;
}

function show(isOperator: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MarketDataManager isOperator={isOperator} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Settings -> Market data', () => {
  it('shows coverage per source, what backtests can use, the gap report and a backfill with its progress', async () => {
    serve(() => json(202, { success: true, data: { id: 'b2', status: 'queued' } }));
    show(true);
    const table = await screen.findByTestId('md-coverage');
    await within(table).findByText('coinbase (shipped)');
    expect(within(table).getByText('2,160')).toBeTruthy();
    expect(screen.getByTestId('md-backtests').textContent).toContain('BTC-USD: history from 2024-04-18 to 2026-11-24 (coinbase (shipped), coinbase)');
    expect((await screen.findByTestId('md-gap-report')).textContent).toContain('05/07/2026, 00:00:00 to 08/27/2026, 00:00:00 (112 d)');
    const bar = await screen.findByRole('progressbar', { name: 'Backfill BTC-USD ONE_HOUR progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(screen.getByTestId('md-backfill').textContent).toContain('1,050 candles fetched');
  });

  it('sends the form as UTC times and shows the field errors of a 400', async () => {
    const posts = serve(() => json(400, { success: false, error: { code: 'invalid', message: 'end is in the future', fields: { end: 'end is in the future: at most now' } } }));
    show(true);
    await screen.findByTestId('md-coverage');
    await userEvent.click(screen.getByRole('button', { name: 'Start backfill' }));
    expect(await screen.findByText('end is in the future: at most now')).toBeTruthy();
    const sent = posts[0] as { symbol: string; granularity: string; start: string; end: string };
    expect(sent.symbol).toBe('BTC-USD');
    expect(sent.granularity).toBe('ONE_HOUR');
    expect(sent.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
    expect(Date.parse(sent.end) - Date.parse(sent.start)).toBe(90 * 86_400_000);
  });

  it('cancels a running backfill; a trader has neither the form nor Cancel', async () => {
    const posts = serve(() => json(202, { success: true, data: { id: 'b2', status: 'queued' } }));
    const { unmount } = show(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(posts).toContain('cancel'));
    unmount();
    show(false);
    await screen.findByTestId('md-backfill');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Start backfill' })).toBeNull();
  });
});
