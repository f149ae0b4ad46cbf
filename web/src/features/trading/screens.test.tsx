import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { reportAnswer, reportLost } from '@/lib/connection';
import type { Order, Trade } from '@/lib/types';
import { SystemStatusCard } from './components/DashboardCards';
import { OrderManagement } from './components/OrderManagement';
import { PortfolioOverview } from './components/PortfolioOverview';
import { PositionManager } from './components/PositionManager';
import { TradeHistory } from './components/TradeHistory';
import { orderLinks } from './orders';

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

const order = (over: Partial<Order>): Order => ({
  id: 'order-0000-aaaaaaaa',
  symbol: 'BTC-USD',
  side: 'SELL',
  order_type: 'limit',
  quantity: '0.01',
  price: '62400',
  filled_quantity: '0',
  average_fill_price: null,
  fee: '0',
  hold: '0',
  status: 'open',
  strategy: '',
  created_at: '2026-05-10T12:00:00Z',
  updated_at: '2026-05-10T12:00:00Z',
  ...over,
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

describe('Orders: protective orders and holds', () => {
  const buy = order({ id: 'buy-order-11111111', side: 'BUY', order_type: 'market', price: null, status: 'filled' });
  const stop = order({ id: 'stop-order-22222222', order_type: 'stop_loss', price: null, stop_price: '58800', hold: '0.01', group_id: 'g1', parent_order_id: buy.id });
  const take = order({ id: 'take-order-33333333', price: '62400', hold: '0', group_id: 'g1', parent_order_id: buy.id });
  const limitBuy = order({ id: 'limit-buy-44444444', side: 'BUY', price: '1000', hold: '10.06' });

  it('links the stop-loss and take-profit of one fill and shows what each order holds', async () => {
    serve({ '/trading/orders': { orders: [take, stop, limitBuy, buy] } });
    renderWith(<OrderManagement />);
    const rows = await screen.findAllByTestId('order-row');
    const [takeRow, stopRow, limitRow, buyRow] = rows;
    expect(within(stopRow!).getByText('Protective')).toBeTruthy();
    expect(within(stopRow!).getByText('OCO')).toBeTruthy();
    expect(within(stopRow!).getByText('OCO with #33333333')).toBeTruthy();
    expect(within(stopRow!).getByText('Parent order #11111111')).toBeTruthy();
    expect(within(takeRow!).getByText('OCO with #22222222')).toBeTruthy();
    expect(within(buyRow!).getByText('Protected by #33333333, #22222222')).toBeTruthy();
    expect(within(limitRow!).queryByTestId('order-links')).toBeNull();

    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    const hold = headers.indexOf('Hold');
    expect(hold).toBeGreaterThan(0);
    const holdOf = (r: HTMLElement) => r.querySelectorAll('td')[hold]!.textContent;
    expect(holdOf(stopRow!)).toBe('0.01 BTC');
    expect(holdOf(limitRow!)).toBe('$10.06');
    expect(holdOf(takeRow!)).toBe('—');
  });

  it('marks a lone protective order without claiming an OCO partner', () => {
    const links = orderLinks([order({ id: 'solo', group_id: 'g2', parent_order_id: 'p' })]).get('solo');
    expect(links).toEqual({ protective: true, parentId: 'p', siblings: [], children: [] });
  });

  it("checks a modified price against the symbol's increment", async () => {
    serve({
      '/trading/orders': { orders: [limitBuy] },
      '/market-data/products': {
        products: [{ product_id: 'BTC-USD', base_currency: 'BTC', quote_currency: 'USD', price_increment: '0.01', base_increment: '0.00000001', base_min_size: '0.00001', status: 'online', price: '60000' }],
      },
    });
    renderWith(<OrderManagement />);
    await userEvent.click(await screen.findByRole('button', { name: 'Modify' }));
    const dialog = screen.getByRole('dialog');
    await vi.waitFor(() => expect(within(dialog).getByLabelText('New Price').getAttribute('step')).toBe('0.01'));
    await userEvent.type(within(dialog).getByLabelText('New Price'), '1000.005');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify Order' }));
    expect(within(dialog).getByText('Price must be a multiple of 0.01')).toBeTruthy();
  });
});

describe('Modify a stop', () => {
  it("sends a stop's new trigger as stop_price after checking it against the market", async () => {
    const stop = order({ id: 'stop-000-33333333', order_type: 'stop_loss', price: null, stop_price: '55000', parent_order_id: 'buy-1', group_id: 'g1' });
    const routes: Record<string, unknown> = {
      '/trading/orders': { orders: [stop] },
      '/market-data/ticker/BTC-USD': { symbol: 'BTC-USD', price: '60000', bid: '59999', ask: '60001' },
    };
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = url.replace(/^\/api/, '').split('?')[0]!;
        if (init?.method === 'PUT') {
          puts.push(JSON.parse(String(init.body)));
          return ok({ order: { ...stop, stop_price: '57000' }, order_id: stop.id, status: 'open' });
        }
        if (path in routes) return ok(routes[path]);
        return new Response(JSON.stringify({ success: false, error: { code: 'not_found', message: `no ${path}` } }), { status: 404 });
      }),
    );
    renderWith(<OrderManagement />);
    await userEvent.click(await screen.findByRole('button', { name: 'Modify' }));
    const dialog = screen.getByRole('dialog', { name: 'Modify Stop #33333333' });
    await within(dialog).findByTestId('modify-market');
    const input = within(dialog).getByLabelText('New Stop Price');
    expect(input.getAttribute('placeholder')).toBe('55000');
    await userEvent.type(input, '61000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify Stop' }));
    expect(within(dialog).getByText('Stop price must be below the current price (60000) for a SELL stop-loss')).toBeTruthy();
    expect(puts).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, '57000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify Stop' }));
    await vi.waitFor(() => expect(puts).toEqual([{ stop_price: '57000' }]));
  });
});

describe('Trailing stop in Orders', () => {
  it('shows its trail and mark, and offers only a quantity change', async () => {
    const ts = order({ id: 'trail-00-44444444', order_type: 'trailing_stop', price: null, stop_price: '50960', trail: { trail_percent: '2', extreme_price: '52000' } });
    serve({ '/trading/orders': { orders: [ts] } });
    renderWith(<OrderManagement />);
    expect((await screen.findByTestId('trail-note')).textContent).toBe('trails 2% from $52,000.00');
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).queryByLabelText(/Price/)).toBeNull();
    expect(within(dialog).getByText(/only its quantity can be changed/)).toBeTruthy();
  });
});

describe('Positions: protection', () => {
  it('shows each stop-loss and take-profit with its quantity, the uncovered rest, and why protection shrank', async () => {
    serve({
      '/trading/positions': {
        positions: [
          {
            symbol: 'BTC-USD',
            quantity: '1',
            avg_price: '50000',
            current_price: '50500',
            current_value: '50500',
            unrealized_pnl: '500',
            pnl_percentage: '1',
            realized_pnl: '0',
            protection: [
              { order_id: 'sl-00000-1', kind: 'stop_loss', price: '49000', quantity: '0.6', protective: true },
              { order_id: 'tp-00000-1', kind: 'take_profit', price: '52000', quantity: '0.6', protective: true },
            ],
            protection_reduced: { symbol: 'BTC-USD', order_id: 'sl-00000-1', kind: 'stop_loss', from_quantity: '1', to_quantity: '0.6', reason: 'a market SELL of 0.4 BTC was placed', at: '2026-05-10T12:00:00Z' },
          },
        ],
      },
      '/trading/portfolio': { total_value: '100000', cash_balance: '49500', total_unrealized_pnl: '500', total_realized_pnl: '0', weekly_pnl: '0', daily_pnl: '0', positions_count: 1, positions: [], total_exposure: '50500', last_updated: '2026-05-10T12:00:00Z' },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PositionManager />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const cell = await screen.findByTestId('position-protection');
    expect(cell.textContent).toContain('SL');
    expect(cell.textContent).toContain('49,000');
    expect(cell.textContent).toContain('TP');
    expect(cell.textContent).toContain('0.4 without a stop');
    const notice = screen.getByTestId('protection-reduced');
    expect(notice.textContent).toContain('reduced from 1 to 0.6');
    expect(notice.textContent).toContain('because a market SELL of 0.4 BTC was placed');
  });
});

describe('Order ownership', () => {
  it("offers a trader Modify and Cancel on their own orders only", async () => {
    sessionStorage.setItem('kestrel_token', 'trader-token');
    serve({
      '/auth/me': { id: 't1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '', last_login: null },
      '/trading/orders': { orders: [order({ id: 'mine-0000-11111111', user_id: 't1' }), order({ id: 'other-000-22222222', user_id: 't2' })] },
    });
    renderWith(<OrderManagement />);
    await vi.waitFor(() => expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(1));
    const rows = screen.getAllByTestId('order-row');
    expect(within(rows[0]!).getByRole('button', { name: 'Modify' })).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button', { name: 'Cancel' })).toBeNull();
    sessionStorage.removeItem('kestrel_token');
  });
});

describe('Positions', () => {
  it("shows the account's realized P&L, closed positions included", async () => {
    serve({
      '/trading/positions': { positions: [{ symbol: 'ETH-USD', quantity: '0.5', avg_price: '2415.42', current_price: '2401.69', current_value: '1200.85', unrealized_pnl: '-6.86', pnl_percentage: '-0.57', realized_pnl: '0', protection: [] }] },
      '/trading/portfolio': { total_value: '99976.61', cash_balance: '98775.76', total_unrealized_pnl: '-6.86', total_realized_pnl: '-16.44', weekly_pnl: '0', daily_pnl: '0', positions_count: 1, positions: [], total_exposure: '1200.85', last_updated: '2026-05-10T12:00:00Z' },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PositionManager />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('-$16.44')).toBeTruthy();
    expect(screen.getByText('incl. buy fees')).toBeTruthy();
  });
});

describe('Trade history: fills', () => {
  const trade = (over: Partial<Trade>): Trade => ({
    id: 'fill-1',
    order_id: 'order-0000-buy00001',
    order_type: 'market',
    symbol: 'BTC-USD',
    side: 'BUY',
    quantity: '0.1',
    price: '60000.5',
    total_value: '6000.05',
    fee: '36',
    status: 'executed',
    strategy: '',
    timestamp: '2026-05-10T12:00:00Z',
    liquidity: 'taker',
    protective: false,
    realized_pnl: null,
    ...over,
  });

  it("shows a market fill's price, its order and type, and an exit's realized P&L", async () => {
    serve({
      '/trading/history': {
        trades: [
          trade({ id: 'fill-2', order_id: 'order-0000-stop0002', side: 'SELL', order_type: 'stop_loss', protective: true, price: '59000', total_value: '5900', realized_pnl: '-135.4' }),
          trade({}),
        ],
        total: 2,
      },
    });
    renderWith(<TradeHistory />);
    const rows = await screen.findAllByTestId('trade-row');
    expect(within(rows[1]!).getByText('$60,000.50')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Market')).toBeTruthy();
    expect(within(rows[1]!).getByText('#buy00001')).toBeTruthy();
    expect(within(rows[0]!).getByText('Stop-Loss (protective)')).toBeTruthy();
    expect(within(rows[0]!).getByText('-$135.40')).toBeTruthy();
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'View' }));
    expect(within(screen.getByRole('dialog', { name: 'Trade Details' })).getByText('order-0000-stop0002')).toBeTruthy();
  });
});

describe('System Status card', () => {
  const status = {
    overall_status: 'healthy',
    timestamp: '2026-05-10T12:00:00Z',
    trading_engine: { trading_halted: false, uptime_seconds: 60, status: 'running' },
    database: { status: 'healthy', last_error: null, last_error_at: null },
  };

  it('shows this instance, the leader and the live instances when clustered', async () => {
    serve({
      '/system/status': {
        ...status,
        cluster: {
          instance: 'web-2',
          leader: 'web-1',
          instances: [
            { id: 'web-1', addr: '10.0.0.1:8080', leader: true, started: '2026-05-10T11:00:00Z', last_seen: '2026-05-10T12:00:00Z' },
            { id: 'web-2', addr: '10.0.0.2:8080', leader: false, started: '2026-05-10T11:00:00Z', last_seen: '2026-05-10T12:00:00Z' },
          ],
        },
      },
    });
    renderWith(<SystemStatusCard />);
    expect(await screen.findByText('web-2')).toBeTruthy();
    expect(screen.getByText('web-1')).toBeTruthy();
    expect(screen.getByText('2 live')).toBeTruthy();
  });

  it('says a leader is being elected while none leads', async () => {
    serve({ '/system/status': { ...status, cluster: { instance: 'web-2', leader: '', instances: [] } } });
    renderWith(<SystemStatusCard />);
    expect(await screen.findByText('electing')).toBeTruthy();
  });

  it("shows why the database is degraded while its writes fail", async () => {
    const message = "The database's disk is full, so nothing was changed; try again once space has been freed";
    serve({ '/system/status': { ...status, overall_status: 'degraded', database: { status: 'degraded', last_error: message, last_error_at: '2026-05-10T11:59:00Z' } } });
    renderWith(<SystemStatusCard />);
    expect((await screen.findByTestId('database-error')).textContent).toBe(message);
  });

  it('labels the sandbox market a replay and names the real date being replayed', async () => {
    serve({
      '/system/status': {
        ...status,
        market_data: { status: 'healthy', last_tick_age_seconds: 0.5, source: 'sandbox replay of Coinbase candles', replay_of: '2025-03-14T15:30:07Z' },
      },
    });
    renderWith(<SystemStatusCard />);
    expect((await screen.findByTestId('market-replay-of')).textContent).toBe('Replay of 2025-03-14 15:30 UTC');
  });

  it('shows no replay date for a live market', async () => {
    serve({ '/system/status': { ...status, market_data: { status: 'healthy', last_tick_age_seconds: 0.5, source: 'Coinbase live market data', replay_of: null } } });
    renderWith(<SystemStatusCard />);
    expect(await screen.findByTestId('market-source')).toBeTruthy();
    expect(screen.queryByTestId('market-replay-of')).toBeNull();
  });

  it('turns every status grey and says it is stale while the server does not answer, and recovers with it', async () => {
    serve({ '/system/status': status });
    renderWith(<SystemStatusCard />);
    const card = await screen.findByTestId('system-status');
    expect(card.getAttribute('data-stale')).toBe('false');
    expect(screen.getByText('Running').className).toContain('emerald');
    act(() => reportLost());
    expect(card.getAttribute('data-stale')).toBe('true');
    expect(screen.getByTestId('status-stale').textContent).toMatch(/^Stale: no answer from the server since/);
    for (const text of ['Running', 'healthy']) {
      for (const el of screen.getAllByText(text)) expect(el.className).toContain('slate-400');
    }
    act(() => reportAnswer());
    expect(card.getAttribute('data-stale')).toBe('false');
    expect(screen.queryByTestId('status-stale')).toBeNull();
  });

  it('shows the venue beside the market source', async () => {
    serve({
      '/system/status': {
        ...status,
        market_data: { status: 'healthy', last_tick_age_seconds: 1, source: 'Coinbase live market data', venue: 'Paper · live Coinbase prices' },
      },
    });
    renderWith(<SystemStatusCard />);
    expect((await screen.findByTestId('trading-venue')).textContent).toBe('Paper · live Coinbase prices');
    expect(screen.getByTestId('market-source').textContent).toBe('(Coinbase live market data)');
  });

  it('shows no cluster rows for a single process', async () => {
    serve({ '/system/status': status });
    renderWith(<SystemStatusCard />);
    expect(await screen.findByText('Overall')).toBeTruthy();
    expect(screen.queryByText('Leader')).toBeNull();
    expect(screen.queryByText('Instance')).toBeNull();
  });
});

describe('Confirmations in the app', () => {
  it('asks in a dialog before cancelling an order, and cancels only when confirmed', async () => {
    sessionStorage.setItem('kestrel_token', 'trader-token');
    const mine = order({ id: 'mine-0000-11111111', user_id: 't1' });
    const fetchMock = serve({
      '/auth/me': { id: 't1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '', last_login: null },
      '/trading/orders': { orders: [mine] },
      '/trading/orders/mine-0000-11111111': { ...mine, status: 'cancelled' },
    });
    const deletes = () => fetchMock.mock.calls.filter((c) => (c as unknown as [string, RequestInit])[1]?.method === 'DELETE');
    renderWith(<OrderManagement />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    let dialog = screen.getByRole('dialog', { name: 'Cancel Order' });
    expect(within(dialog).getByText('Are you sure you want to cancel this order?')).toBeTruthy();
    expect(within(dialog).getByTestId('cancel-order-what').textContent).toBe('SELL 0.01 BTC-USD limit $62,400.00 (#11111111)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes()).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    dialog = screen.getByRole('dialog', { name: 'Cancel Order' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await vi.waitFor(() => expect(deletes()).toHaveLength(1));
    expect(deletes()[0]![0]).toBe('/api/trading/orders/mine-0000-11111111');
    sessionStorage.removeItem('kestrel_token');
  });

  it('shows an invalid close quantity under the field, without sending', async () => {
    const fetchMock = serve({
      '/trading/positions': { positions: [{ symbol: 'ETH-USD', quantity: '0.5', avg_price: '2415.42', current_price: '2401.69', current_value: '1200.85', unrealized_pnl: '-6.86', pnl_percentage: '-0.57', realized_pnl: '0', protection: [] }] },
      '/trading/portfolio': { total_value: '99976.61', cash_balance: '98775.76', total_unrealized_pnl: '-6.86', total_realized_pnl: '-16.44', weekly_pnl: '0', daily_pnl: '0', positions_count: 1, positions: [], total_exposure: '1200.85', last_updated: '2026-05-10T12:00:00Z' },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PositionManager />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    const input = screen.getByLabelText('Quantity to close');
    await userEvent.clear(input);
    await userEvent.type(input, '0.6');
    await userEvent.click(screen.getByRole('button', { name: 'Close Position' }));
    expect(screen.getByText('Invalid quantity')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('/trading/execute'))).toBe(false);
    await userEvent.type(input, '5'); // editing clears it
    expect(screen.queryByText('Invalid quantity')).toBeNull();
  });
});
