import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OrderBook } from './components/OrderBook';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function show(book: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => json(200, { success: true, data: book })));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <OrderBook />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Order book', () => {
  it('is absent on the replay, with the server reason', async () => {
    show({ symbol: 'BTC-USD', available: false, reason: 'No order book on the replay: it replays Coinbase candles, which carry no book.', source: 'sandbox replay', bids: [], asks: [], time: '2026-11-25T00:00:00Z' });
    expect((await screen.findByTestId('ob-absent')).textContent).toContain('No order book on the replay');
    expect(screen.queryByTestId('ob-ladder')).toBeNull();
  });

  it('shows the ladder, asks above bids, with the spread and a depth chart', async () => {
    show({
      symbol: 'BTC-USD', available: true, source: 'Coinbase level2', time: '2026-11-25T00:00:00Z',
      bids: [{ price: '61230', size: '1' }, { price: '61220', size: '0.5' }],
      asks: [{ price: '61234.5', size: '0.005' }, { price: '61240', size: '0.004' }],
    });
    const ladder = await screen.findByTestId('ob-ladder');
    const rows = within(ladder).getAllByRole('row').map((r) => r.textContent);
    expect(rows.slice(1)).toEqual(['$61,240.000.004', '$61,234.500.005', 'Spread $4.50', '$61,230.001', '$61,220.000.5']);
    expect(screen.getByTestId('ob-depth').textContent).toContain('bids 1.5, asks 0.009');
  });
});
