import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { AssumptionsBanner } from '../backtest/components/ReportSummary';
import StrategyManagement from '../strategies/routes/StrategyManagement';
import type { Assumptions } from '../backtest/types';
import type { StrategyConfig, StrategyVersion } from '../strategies/types';
import { diffParams, flatten } from './model';

const indicators = { rsi_period: 14, rsi_oversold: 30, rsi_overbought: 70, sma_short: 10, sma_long: 20, macd_fast: 12, macd_slow: 26, macd_signal: 9, bollinger_period: 20, bollinger_std: 2 };
const params = { min_confidence: 0.6, max_position_size: 0.15, risk_multiplier: 1.2, symbols: ['BTC-USD', 'ETH-USD'], timeframe: 'ONE_HOUR', indicators };
const technical: StrategyConfig = { name: 'technical_strategy', type: 'technical', enabled: false, ...params, version: 3 };

function version(n: number, over: Partial<StrategyVersion>): StrategyVersion {
  return { strategy: 'technical_strategy', version: n, params, note: '', created_by: '', created_at: '2026-05-10T12:00:00Z', active: false, ...over };
}

const promotionSettings = { paperStartingUSD: '10000', paper: { requireWalkForward: true, minOOSTrades: 30, minOOSSharpe: 0.5 }, live: { minPaperDays: 14, minPaperTrades: 20 } };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown) => json(200, { success: true, data });

/** A fetch mock with three versions of technical_strategy; activate moves the active mark. */
function mockServer(role: 'operator' | 'trader' = 'operator', activateStatus = 200) {
  let active = 3;
  const posts: string[] = [];
  const versions = () => [
    version(3, { params: { ...params, indicators: { ...indicators, rsi_period: 7 } }, parent: 2, note: 'trial 4 of the RSI sweep', created_by: 'op@example.com', active: active === 3 }),
    version(2, { params: { ...params, min_confidence: 0.7 }, parent: 1, created_by: 'op@example.com', active: active === 2 }),
    version(1, { note: 'Default configuration', active: active === 1 }),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '');
      const method = init?.method ?? 'GET';
      if (method === 'POST') {
        posts.push(path);
        const m = /^\/strategy\/versions\/technical_strategy\/(\d+)\/activate$/.exec(path);
        if (m && activateStatus === 200) {
          const prev = active;
          active = Number(m[1]);
          return ok({ strategy: 'technical_strategy', active_version: active, previous_version: prev, config: { ...technical, version: active } });
        }
        return json(activateStatus, { success: false, error: { code: 'not_found', message: 'Version 2 of technical_strategy not found' } });
      }
      switch (path) {
        case '/auth/me':
          return ok({ id: 'u1', email: 'op@example.com', name: 'Op', role, created_at: '', last_login: null });
        case '/strategy/list':
          return ok({ strategies: [{ name: 'technical_strategy', type: 'technical', is_active: false, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: { ...technical, version: active } }] });
        case '/strategy/versions/technical_strategy':
          return ok({ strategy: 'technical_strategy', active_version: active, versions: versions(), count: 3 });
        case '/strategy/promotions/technical_strategy':
          return ok({ strategy: 'technical_strategy', stages: [], count: 0, settings: promotionSettings });
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

describe('version diff model', () => {
  it('flattens nested params into dotted keys and keeps lists whole', () => {
    expect(flatten({ indicators: { rsi_period: 7 }, symbols: ['BTC-USD', 'ETH-USD'], parameters: {} })).toEqual({ 'indicators.rsi_period': 7, symbols: ['BTC-USD', 'ETH-USD'], parameters: {} });
  });
  it('lists every parameter of either side and marks the ones that differ', () => {
    const rows = diffParams({ min_confidence: 0.6, indicators: { rsi_period: 14 }, symbols: ['BTC-USD'] }, { min_confidence: 0.6, indicators: { rsi_period: 7 }, symbols: ['BTC-USD', 'ETH-USD'], model: 'x' });
    expect(rows).toEqual([
      { key: 'indicators.rsi_period', from: '14', to: '7', changed: true },
      { key: 'min_confidence', from: '0.6', to: '0.6', changed: false },
      { key: 'model', from: '—', to: 'x', changed: true },
      { key: 'symbols', from: 'BTC-USD', to: 'BTC-USD, ETH-USD', changed: true },
    ]);
  });
});

describe('backtest report', () => {
  const a: Assumptions = {
    taker_fee: '0.006',
    maker_fee: '0.004',
    slippage_bps: '0',
    volume_cap: 'none',
    fills: 'next open',
    timeframe: 'ONE_HOUR',
    engine_version: '1',
    build: 'test',
    candles_hash: 'ab',
    candles: 10,
    data: { source: 'coinbase (shipped)', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', candles: 10, hash: 'ab', synthetic: false },
  };
  it('names the strategy version the run used', () => {
    render(<AssumptionsBanner a={a} strategyVersion={4} />);
    expect(screen.getByRole('note', { name: 'Assumptions' }).textContent).toContain('strategy configuration version 4 · Taker fee 0.60%');
  });
  it('says nothing of a version for a run from before versions', () => {
    render(<AssumptionsBanner a={a} strategyVersion={0} />);
    expect(screen.getByRole('note', { name: 'Assumptions' }).textContent).toContain('AssumptionsTaker fee 0.60%');
  });
});

describe('Strategy Management: Versions', () => {
  it('shows the history with who, when, note and the active badge, and the diff against the previous version', async () => {
    mockServer();
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    const rows = await screen.findAllByTestId('version-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('v3')).toBeTruthy();
    expect(within(rows[0]!).getByText('from v2')).toBeTruthy();
    expect(within(rows[0]!).getByText('op@example.com')).toBeTruthy();
    expect(within(rows[0]!).getByText('trial 4 of the RSI sweep')).toBeTruthy();
    expect(within(rows[0]!).getByText('Active')).toBeTruthy();
    expect(within(rows[2]!).getByText('Default configuration')).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Activate version 1' })).toBeTruthy();
    // Default diff: v2 -> v3 (the active one against the one before it).
    expect(screen.getByTestId('diff-summary').textContent).toBe('2 of 15 parameters differ between v2 and v3.');
    const diff = screen.getAllByTestId('diff-row').map((r) => r.textContent);
    expect(diff).toEqual(['indicators.rsi_period147', 'min_confidence0.70.6']);
    // Any two: v1 against v2.
    await userEvent.selectOptions(screen.getByLabelText('Compare from'), '1');
    await userEvent.selectOptions(screen.getByLabelText('Compare to'), '2');
    expect(screen.getAllByTestId('diff-row').map((r) => r.textContent)).toEqual(['min_confidence0.60.7']);
    await userEvent.click(screen.getByLabelText('Show unchanged parameters'));
    expect(screen.getAllByTestId('diff-row')).toHaveLength(15);
  });

  it('activates an older version only after the in-app confirmation, and marks it active', async () => {
    const posts = mockServer();
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    await screen.findAllByTestId('version-row');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Activate version 1' }) as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Activate version 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Activate version 1?' });
    expect(dialog.textContent).toContain('technical_strategy will run version 1 instead of version 3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posts).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Activate version 1' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Activate version 1' }));
    await screen.findByText('technical_strategy now runs version 1 (was version 3)');
    expect(posts).toEqual(['/strategy/versions/technical_strategy/1/activate']);
    await waitFor(() => expect(within(screen.getAllByTestId('version-row')[2]!).getByText('Active')).toBeTruthy());
    expect(within(screen.getAllByTestId('version-row')[0]!).getByRole('button', { name: 'Activate version 3' })).toBeTruthy();
  });

  it('says why an activation failed', async () => {
    mockServer('operator', 404);
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    await screen.findAllByTestId('version-row');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Activate version 2' }) as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Activate version 2' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Activate version 2' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to activate version 2: Version 2 of technical_strategy not found');
  });

  it('lets a trader read the history but not activate', async () => {
    mockServer('trader');
    renderScreen();
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions' }));
    await screen.findAllByTestId('version-row');
    await screen.findByText('Only operators can activate a version or promote one to paper.');
    expect((screen.getByRole('button', { name: 'Activate version 1' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
