import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import StrategyManagement from '../strategies/routes/StrategyManagement';
import type { StrategyConfig } from '../strategies/types';

const indicators = { rsi_period: 14, rsi_oversold: 30, rsi_overbought: 70, sma_short: 10, sma_long: 20, macd_fast: 12, macd_slow: 26, macd_signal: 9, bollinger_period: 20, bollinger_std: 2 };
const params = { min_confidence: 0.6, max_position_size: 0.15, risk_multiplier: 1.2, symbols: ['BTC-USD'], timeframe: 'FIFTEEN_MINUTE', indicators };
const technical: StrategyConfig = { name: 'technical_strategy', type: 'technical', enabled: false, ...params, version: 2 };
const settings = { paperStartingUSD: '10000', paper: { requireWalkForward: true, minOOSTrades: 30, minOOSSharpe: 0.5 }, live: { minPaperDays: 14, minPaperTrades: 20 } };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json(200, { success: true, data });

const gates = [
  { name: 'Out-of-sample trades', setting: 'trading.promotion.paper.minOOSTrades', required: 30, seen: 12, passed: false, detail: '12 out-of-sample trades (at least 30 required; sweep s1 of version 2, 4 folds out of sample)' },
  { name: 'Out-of-sample Sharpe ratio', setting: 'trading.promotion.paper.minOOSSharpe', required: 0.5, seen: 0.81, passed: true, detail: 'mean out-of-sample Sharpe ratio 0.8100' },
];
const t0 = '2026-11-29T10:00:00Z';
const t1 = '2026-11-29T10:15:00Z';
const stage = {
  id: 'p1', strategy: 'technical_strategy', version: 2, stage: 'paper', status: 'running', account: 'promotion-p1', starting_usd: '10000', gates: [], started_by: 'op@example.com', started_at: t0,
  paper_account: { balances: [{ currency: 'USD', available: '8999.5', hold: '0' }], positions: [{ symbol: 'BTC-USD', quantity: '0.01', cost: '1000.5', realized_pnl: '0' }], orders_filled: 1, fills: 1, open_orders: 0, equity: '9999.5' },
};
const totals = (over: object) => ({ evaluations: 2, buy_signals: 1, sell_signals: 0, fills: 1, bought_quantity: '0.01', sold_quantity: '0', fees: '0.6', net_cash: '-1000.6', open_quantity: '0.01', pnl: '9.4', ...over });
const drift = {
  promotion: stage, from: t0, to: '2026-11-29T10:30:00Z', market: 'replay', data_from: '2025-05-01T10:00:00Z', data_to: '2025-05-01T10:30:00Z', timeframe: 'FIFTEEN_MINUTE',
  notes: ['Fills: the backtest fills a signal at the next candle\'s open.'],
  symbols: [{
    symbol: 'BTC-USD', rows: [
      { candle_time: t0, paper: { decision: 'BUY', confidence: 0.8, executed: true, order_id: 'o1' }, backtest: { decision: 'BUY', confidence: 0.8 }, agree: true,
        paper_fill: { side: 'BUY', time: t1, quantity: '0.01', price: '100050', fee: '0.6', fills: 1 }, backtest_fill: { side: 'BUY', time: t1, quantity: '0.01', price: '100000', fee: '0.6', fills: 1 }, slippage_bps: '5' },
      { candle_time: t1, paper: { decision: 'HOLD', confidence: 0.5, executed: false }, backtest: { decision: 'SELL', confidence: 0.7 }, agree: false, paper_fill: null, backtest_fill: null, slippage_bps: null },
    ],
    paper: totals({}), backtest: totals({ sell_signals: 1, pnl: '4' }), compared: 2, agreed: 1, only_paper: 0, only_backtest: 0, mean_slippage_bps: '5', paper_other_fills: [], backtest_other_fills: [], mark: '101000',
  }],
};

/** Promotion answers: the first promotion is refused by its gates, the second starts a paper stage. */
function mockServer(role: 'operator' | 'trader', initial: unknown[] = []) {
  const stages: unknown[] = [...initial];
  const posts: string[] = [];
  let tries = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '');
      if ((init?.method ?? 'GET') === 'POST') posts.push(path);
      if ((init?.method ?? 'GET') === 'POST' && path === '/strategy/promotions/technical_strategy/p0/close-positions') {
        return ok({ orders: [{ id: 'o9', side: 'SELL', status: 'filled' }], count: 1 });
      }
      if ((init?.method ?? 'GET') === 'POST' && path === '/strategy/promotions/technical_strategy') {
        if (tries++ === 0) return json(409, { success: false, error: { code: 'conflict', message: 'The version does not pass the gates to paper', fields: { [gates[0]!.setting]: gates[0]!.detail }, gates } });
        stages.push(stage);
        return json(201, { success: true, data: stage });
      }
      switch (path) {
        case '/auth/me':
          return ok({ id: 'u1', email: 'op@example.com', name: 'Op', role, created_at: '', last_login: null });
        case '/strategy/list':
          return ok({ strategies: [{ name: 'technical_strategy', type: 'technical', is_active: false, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: technical }] });
        case '/strategy/versions/technical_strategy':
          return ok({ strategy: 'technical_strategy', active_version: 2, count: 1, versions: [{ strategy: 'technical_strategy', version: 2, params, note: '', created_by: 'op@example.com', created_at: t0, active: true }] });
        case '/strategy/promotions/technical_strategy':
          return ok({ strategy: 'technical_strategy', stages, count: stages.length, settings });
        case '/strategy/promotions/technical_strategy/p1/drift':
          return ok(drift);
      }
      return json(404, { success: false, error: { code: 'not_found', message: `no ${path}` } });
    }),
  );
  return posts;
}

function renderScreen() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <StrategyManagement />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('t'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Strategy Management: promotion', () => {
  it('shows the gates a refused promotion names, then the paper stage, its account and its drift report', async () => {
    mockServer('operator');
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    expect((await screen.findByTestId('gate-summary')).textContent).toContain('at least 30 out-of-sample trades');
    await screen.findByText('No version of technical_strategy has been promoted yet. Promote one from the history above.');

    await userEvent.click(screen.getByRole('button', { name: 'Promote version 2 to paper' }));
    const refusal = await screen.findByRole('alert');
    const rows = within(refusal).getAllByTestId('gate-row').map((r) => r.textContent);
    expect(rows[0]).toContain('✗ Out-of-sample trades');
    expect(rows[0]).toContain('3012'); // required 30, seen 12
    expect(rows[1]).toContain('✓ Out-of-sample Sharpe ratio');

    await userEvent.click(screen.getByRole('button', { name: 'Promote version 2 to paper' }));
    await screen.findByText('Version 2 of technical_strategy now trades on paper in its own account');
    await waitFor(() => expect(screen.queryByText('Version 2 was not promoted')).toBeNull());
    const row = await screen.findByTestId('stage-row');
    expect(row.textContent).toContain('running');
    const account = within(row).getByLabelText('Paper account of version 2');
    expect(account.textContent).toContain('Cash available$8,999.50');
    expect(account.textContent).toContain('Positions0.01 BTC-USD');
    expect(within(row).getByTestId('stage-equity').textContent).toBe('$9,999.50 (-0.01% since $10,000.00)');
    expect((within(row).getByRole('button', { name: 'Approve for live' }) as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(within(row).getByRole('button', { name: 'Drift report' }));
    const report = await screen.findByTestId('drift-report');
    expect(within(report).getByTestId('drift-summary').textContent).toContain('2 candles both evaluated, 1 decided alike');
    const drows = within(report).getAllByTestId('drift-row').map((r) => r.textContent);
    expect(drows[0]).toContain('BUY 0.80 · executed');
    expect(drows[0]).toContain('5.00 bps');
    expect(drows[1]).toContain('HOLD 0.50');
    expect(drows[1]).toContain('SELL 0.70');
    expect(report.textContent).toContain("Fills: the backtest fills a signal at the next candle's open.");
  });

  it('shows a trader the stages but no promote, approve, demote or close (strategy actions are operators\'; issue 33, item 9)', async () => {
    const ended = { ...stage, id: 'p0', status: 'demoted', ended_at: t1, ended_by: 'op@example.com', reason: 'enough' };
    mockServer('trader', [stage, ended]);
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    const rows = await screen.findAllByTestId('stage-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByText('Only operators can activate a version or promote one to paper.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Promote version 2 to paper' })).toBeNull();
    expect((within(rows[0]!).getByRole('button', { name: 'Approve for live' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(rows[0]!).queryByRole('button', { name: 'Demote' })).toBeNull();
    expect(within(rows[1]!).queryByRole('button', { name: 'Close positions' })).toBeNull();
    expect(within(rows[0]!).getByRole('button', { name: 'Drift report' })).toBeTruthy();
  });

  it('closes an ended paper stage\'s positions only after the in-app confirmation', async () => {
    const ended = { ...stage, id: 'p0', status: 'demoted', ended_at: t1, ended_by: 'op@example.com', reason: 'enough' };
    const posts = mockServer('operator', [ended]);
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    const row = await screen.findByTestId('stage-row');
    expect(within(row).queryByRole('button', { name: 'Demote' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Close positions' }));
    const dialog = screen.getByRole('dialog', { name: 'Close the positions of version 2?' });
    expect(dialog.textContent).toContain('0.01 BTC-USD');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posts).toEqual([]);
    await userEvent.click(within(row).getByRole('button', { name: 'Close positions' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sell at market' }));
    await screen.findByText("Closed 1 position(s) of version 2's paper account");
    expect(posts).toEqual(['/strategy/promotions/technical_strategy/p0/close-positions']);
  });
});
