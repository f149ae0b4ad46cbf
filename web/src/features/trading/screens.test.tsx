import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortfolioOverview } from './components/PortfolioOverview';

// The chart library needs a canvas; the value chart is not what these tests look at.
vi.mock('./components/PortfolioValueChart', () => ({ PortfolioValueChart: () => null }));

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** Answers GETs by path prefix, as the server would. */
function serve(routes: Record<string, unknown>) {
  const fetchMock = vi.fn(async (url: string) => {
    const path = url.replace(/^\/api/, '').split('?')[0]!;
    if (path in routes) return ok(routes[path]);
    return new Response(JSON.stringify({ success: false, error: { code: 'not_found', message: `no ${path}` } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderWith(ui: ReactNode) {
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Portfolio balances', () => {
  it('shows cash available and on hold, and each holding available and on hold', async () => {
    serve({
      '/trading/portfolio': {
        total_value: '100600',
        cash_balance: '99400',
        total_unrealized_pnl: '0',
        total_realized_pnl: '0',
        weekly_pnl: '0',
        daily_pnl: '0',
        positions_count: 1,
        positions: [],
        total_exposure: '600',
        last_updated: '2026-05-10T12:00:00Z',
      },
      '/trading/performance': { total_trades: 1, successful_trades: 1, failed_trades: 0, win_rate: 100, pending_orders: 2 },
      '/trading/balances': {
        balances: [
          { asset: 'USD', available: '98400.5', hold: '1000', total: '99400.5' },
          { asset: 'BTC', available: '0.004', hold: '0.006', total: '0.01' },
          { asset: 'ETH', available: '0', hold: '0', total: '0' },
        ],
      },
    });
    renderWith(<PortfolioOverview />);
    const cash = await screen.findByTestId('cash-balance');
    expect(within(cash).getByText('Available').nextSibling?.textContent).toBe('$98,400.50');
    expect(within(cash).getByText('On hold').nextSibling?.textContent).toBe('$1,000.00');
    expect(within(cash).getByText('Total').nextSibling?.textContent).toBe('$99,400.50');
    const rows = screen.getAllByTestId('holding-row');
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([['BTC', '0.004', '0.006', '0.01']]);
  });
});
