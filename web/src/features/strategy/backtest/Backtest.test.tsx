import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { fillMarkers } from '@/components/chart';
import { chartGranularity, defaultForm, toAsk, validateBacktest } from './model';
import { coverageMessage, periodEndingAt, symbolSpan } from '@/lib/coverage';
import type { BacktestAsk, BacktestJob, BacktestReport, BacktestRun, LiveEstimate } from './types';
import Backtest from './routes/Backtest';

// The charts draw on a canvas, which jsdom lacks; the end-to-end test sees them.
vi.mock('./components/EquityChart', () => ({ EquityChart: () => <div data-testid="equity-chart" /> }));
vi.mock('./components/FillsChart', () => ({ FillsChart: () => <div data-testid="fills-chart" /> }));
vi.mock('./components/CompareEquity', () => ({
  CompareEquity: ({ runs }: { runs: BacktestReport[] }) => <div data-testid="compare-equity">{runs.map((r) => r.id).join(' ')}</div>,
}));

/** The saved configuration the overrides form is built from. */
const technicalConfig = {
  name: 'technical_strategy', type: 'technical', enabled: false, min_confidence: 0.6, max_position_size: 0.15, risk_multiplier: 1.2, symbols: ['BTC-USD'], timeframe: 'ONE_HOUR',
  indicators: { rsi_period: 14, rsi_oversold: 30, rsi_overbought: 70, sma_short: 10, sma_long: 20, macd_fast: 12, macd_slow: 26, macd_signal: 9, bollinger_period: 20, bollinger_std: 2 },
};

const strategies = [
  { name: 'technical_strategy', type: 'technical', is_active: false, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: {} },
  { name: 'ai_strategy', type: 'ai_driven', is_active: false, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: {} },
];

const coverage = [
  { symbol: 'BTC-USD', granularity: 'FIFTEEN_MINUTE', from: '2024-04-18T16:30:00Z', to: '2026-05-08T17:00:00Z', candles: 72000, gaps: [], source: 'coinbase (shipped)' },
];

function report(over: Partial<BacktestReport> = {}): BacktestReport {
  return {
    id: 'run-1111-aaaa',
    created_at: '2026-05-01T10:00:00Z',
    request: { strategy_name: 'technical_strategy', symbol: 'BTC-USD', start_date: '2026-01-01', end_date: '2026-03-01', initial_capital: '10000', slippage_bps: '0', volume_cap: '0' },
    config: {},
    assumptions: {
      taker_fee: '0.006',
      maker_fee: '0.004',
      slippage_bps: '0',
      volume_cap: 'none',
      fills: "signals fill at the next candle's open",
      timeframe: 'ONE_HOUR',
      engine_version: '1',
      build: 'test',
      candles_hash: 'abcdef0123456789',
      candles: 1473,
      half_spread: '0.00005',
      policy: {
        stop_loss: true,
        stop_loss_percent: '0.02',
        take_profit: false,
        take_profit_percent: '0.04',
        max_position_size: '0.1',
        daily_loss_limit: '0.05',
        max_drawdown: '0.15',
        max_open_positions: 10,
        max_daily_trades: 50,
        min_trade_amount: '10',
        max_trade_amount: '10000',
        max_leverage: '1',
      },
      data: { source: 'coinbase (shipped)', from: '2025-12-29T15:00:00Z', to: '2026-03-01T00:00:00Z', candles: 1473, hash: 'abcdef0123456789', synthetic: false },
    },
    strategy_name: 'technical_strategy',
    symbol: 'BTC-USD',
    start_date: '2026-01-01T00:00:00Z',
    end_date: '2026-03-01T00:00:00Z',
    total_trades: 4,
    winning_trades: 3,
    losing_trades: 1,
    total_return: 0.1234,
    win_rate: 0.75,
    max_drawdown: 0.0567,
    sharpe_ratio: 1.87,
    sortino_ratio: 2.5,
    calmar_ratio: 3.1,
    cagr: 0.9,
    profit_factor: 4.2,
    win_loss_ratio: 3,
    expectancy: '308.5',
    average_win: '450',
    average_loss: '-116.5',
    exposure_time: 0.42,
    fees_paid: '96.12',
    buy_and_hold_return: -0.2346,
    initial_equity: '10000',
    final_equity: '11234.56',
    breakeven_trades: 0,
    signals: { total: 20, traded: 6, not_executed: { 'Position already at its target size': 9, 'No position to sell (a spot account never goes short)': 5 } },
    candles: 1416,
    status: 'completed',
    equity_curve: [{ time: '2026-01-01T00:00:00Z', equity: '10000', drawdown: 0 }],
    trades: [
      { entry_time: '2026-01-02T10:00:00Z', exit_time: '2026-01-03T12:00:00Z', entry_price: '87743.99', exit_price: '90883.75', quantity: '0.0113398', fees: '11.95', pnl: '23.64', exit_reason: 'signal' },
      { entry_time: '2026-01-05T10:00:00Z', exit_time: '2026-01-05T14:00:00Z', entry_price: '90000', exit_price: '88200', quantity: '0.011', fees: '11.8', pnl: '-31.6', exit_reason: 'stop_loss' },
    ],
    fills: [],
    ...over,
  };
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown, status = 200) => json(status, { success: true, data });
const failure = (status: number, message: string, fields?: Record<string, string>) => json(status, { success: false, error: { code: 'invalid', message, fields } });

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** A job that completed with the report r. */
const done = (r: BacktestReport): BacktestJob => ({ id: r.id, status: 'completed', progress: 1, created_at: r.created_at, request: r.request, report: r });

/** The same job still running at progress p. */
const running = (r: BacktestReport, p: number): BacktestJob => ({ id: r.id, status: 'running', progress: p, created_at: r.created_at, request: r.request });

const asRun = (j: BacktestJob): BacktestRun => ({
  id: j.id, created_at: j.created_at, strategy_name: j.request.strategy_name, symbol: j.request.symbol, status: j.status, progress: j.progress, request: j.request, ...(j.error ? { error: j.error } : {}),
  ...(j.report ? { total_return: j.report.total_return } : {}),
});

/**
 * A fetch mock for the screen: POST /backtests answers what post gives (an
 * error, an estimate, or a report, which is queued as a job: 202); the job
 * then goes through the states outcome gives (each GET takes the next; the
 * last stays), by default straight to completed. Cancel cancels it.
 */
function mockServer({ post, stored = [], outcome = (r) => [done(r)], role = 'operator' }: { post?: (body: unknown) => Response; stored?: BacktestReport[]; outcome?: (r: BacktestReport) => BacktestJob[]; role?: string } = {}) {
  const calls: Call[] = [];
  const jobs = new Map<string, BacktestJob[]>(stored.map((r) => [r.id, [done(r)]]));
  const order = stored.map((r) => r.id);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://x');
      const c: Call = { method: init?.method ?? 'GET', path: u.pathname.replace(/^\/api/, ''), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      if (c.method === 'POST' && c.path === '/backtests') {
        const res = post ? post(c.body) : failure(500, 'no post');
        const env = (await res.clone().json().catch(() => ({ success: false }))) as { success: boolean; data?: BacktestReport | LiveEstimate };
        if (!env.success || !env.data || env.data.status === 'confirmation_required') return res; // an estimate is not a run
        const r = env.data as BacktestReport;
        jobs.set(r.id, outcome(r));
        order.unshift(r.id);
        return ok({ id: r.id, status: 'queued' }, 202);
      }
      if (c.path === '/strategy/list') return ok({ strategies });
      if (c.path === '/strategy/config/technical_strategy') return ok(technicalConfig);
      if (c.path === '/market-data/coverage') return ok({ coverage });
      if (c.path === '/auth/me') return ok({ id: 'u1', email: 'op@example.com', name: 'Op', role });
      if (c.path === '/backtests') {
        const list = order.map((id) => asRun(jobs.get(id)![0]!));
        return ok({ backtests: list, count: list.length });
      }
      const m = /^\/backtests\/([^/]+)(\/cancel)?$/.exec(c.path);
      const states = m ? jobs.get(m[1]!) : undefined;
      if (states && m![2]) {
        const j: BacktestJob = { ...states[0]!, status: 'cancelled', error: 'Cancelled by op@example.com', report: undefined };
        jobs.set(j.id, [j]);
        return ok(j);
      }
      if (states) return ok(states.length > 1 ? states.shift() : states[0]);
      return failure(404, `no ${c.path}`);
    }),
  );
  return calls;
}

function renderScreen() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <Backtest />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('t'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

async function fillForm(v: { strategy?: string; start?: string; end?: string; capital?: string }) {
  if (v.strategy !== undefined) {
    await screen.findByRole('option', { name: new RegExp(`^${v.strategy} \\(`) });
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), v.strategy);
  }
  for (const [label, value] of [
    ['Start Date', v.start],
    ['End Date', v.end],
    ['Initial Capital (USD)', v.capital],
  ] as const) {
    if (value === undefined) continue;
    const el = screen.getByLabelText(label);
    await userEvent.clear(el);
    if (value) await userEvent.type(el, value);
  }
}

/** Presses Run once it can be pressed: it waits for the store's coverage (the period is checked against it). */
const run = async () => {
  const button = screen.getByRole('button', { name: 'Run Backtest' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await userEvent.click(button);
};

describe('Strategy Backtesting', () => {
  it('starts empty, with the spec defaults', async () => {
    mockServer();
    renderScreen();
    expect(screen.getByText('No Backtest Results')).toBeTruthy();
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('BTC-USD');
    const capital = screen.getByLabelText('Initial Capital (USD)') as HTMLInputElement;
    expect([capital.value, capital.min, capital.step]).toEqual(['10000', '1000', '1000']);
    expect(await screen.findByText('No backtests yet.')).toBeTruthy();
  });

  it('defaults to the last three months of stored market data, not of the calendar', async () => {
    mockServer();
    renderScreen();
    await waitFor(() => expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe('2026-05-08'));
    expect((screen.getByLabelText('Start Date') as HTMLInputElement).value).toBe('2026-02-08');
    expect(screen.getByTestId('period-status').textContent).toBe('Between 7 and 365 days within the data (2024-04-18 to 2026-05-07); the default is its last three months.');
  });

  it('keeps Run disabled until the coverage has answered, so no period it has not confirmed is sent', async () => {
    const calls = mockServer();
    renderScreen();
    const button = screen.getByRole('button', { name: 'Run Backtest' }) as HTMLButtonElement;
    // Before the coverage: no period, Run disabled, and the form says why.
    expect(button.disabled).toBe(true);
    expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('period-status').textContent).toBe('Reading which dates the market data covers…');
    await waitFor(() => expect(button.disabled).toBe(false));
    expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe('2026-05-08');
    // A period past the data is refused in the form with the server's words; nothing is sent.
    await fillForm({ strategy: 'technical_strategy', start: '2026-04-01', end: '2026-05-20' });
    await run();
    expect(screen.getByText('Market data for BTC-USD covers 2024-04-18 to 2026-05-07')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('refuses a bad form with the spec messages and does not call the server', async () => {
    const calls = mockServer();
    renderScreen();
    await waitFor(() => expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe('2026-05-08'));
    await fillForm({ start: '2026-03-01', end: '2026-01-01', capital: '0' });
    await run();
    expect(screen.getByText('Please select a strategy')).toBeTruthy();
    expect(screen.getByText('Start date must be before end date')).toBeTruthy();
    expect(screen.getByText('Initial capital must be greater than 0')).toBeTruthy();

    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-01-05', capital: '10000' });
    await run();
    expect(screen.getByText('Backtest period must be at least 7 days')).toBeTruthy();

    await fillForm({ start: '2025-01-01', end: '2026-03-01' });
    await run();
    expect(screen.getByText('Backtest period cannot exceed 365 days')).toBeTruthy();

    await fillForm({ start: '' });
    await run();
    expect(screen.getByText('Please select start and end dates')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Symbol'));
    await run();
    expect(screen.getByText('Please enter a trading symbol')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('runs a backtest and shows the report: metrics, derived values, assumptions, trades and why signals did not trade', async () => {
    const calls = mockServer({ post: () => ok(report(), 201) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01', capital: '10000' });
    await run();
    expect(await screen.findByText('Backtest completed successfully')).toBeTruthy();
    expect(posts(calls)[0]!.body).toEqual({ strategy_name: 'technical_strategy', symbol: 'BTC-USD', start_date: '2026-01-01', end_date: '2026-03-01', initial_capital: 10000 });

    expect(within(screen.getByTestId('bt-total-return')).getByText('+12.34%')).toBeTruthy();
    expect(within(screen.getByTestId('bt-total-return')).getByText('Buy & hold -23.46%')).toBeTruthy();
    expect(within(screen.getByTestId('bt-win-rate')).getByText('75.0%')).toBeTruthy();
    expect(within(screen.getByTestId('bt-max-drawdown')).getByText('5.67%')).toBeTruthy();
    // Final value is the server's exact final equity, not capital x (1 + a rounded float).
    expect(within(screen.getByTestId('bt-final-value')).getByText('$11,234.56')).toBeTruthy();

    const metrics = within(screen.getByTestId('bt-metrics'));
    const row = (label: string) => metrics.getByText(label).parentElement!.textContent;
    expect(row('Sharpe Ratio')).toBe('Sharpe Ratio1.87');
    expect(row('Sortino Ratio')).toBe('Sortino Ratio2.50');
    expect(row('Calmar Ratio')).toBe('Calmar Ratio3.10');
    expect(row('CAGR')).toBe('CAGR+90.00%');
    expect(row('Profit Factor')).toBe('Profit Factor4.20');
    expect(row('Win/Loss Ratio')).toBe('Win/Loss Ratio3.00');
    expect(row('Exposure Time')).toBe('Exposure Time42.0%');
    expect(row('Expectancy')).toBe('Expectancy+$308.50');
    expect(row('Average Loss')).toBe('Average Loss-$116.50');
    // Average trade = capital x total return / total trades.
    expect(row('Average Trade')).toBe('Average Trade$308.50');
    expect(row('Fees Paid')).toBe('Fees Paid$96.12');
    expect(row('Final Equity')).toBe('Final Equity$11,234.56');
    // The signals reconcile: 20 = 6 traded + 14 not executed.
    expect(screen.getByTestId('bt-signals').textContent).toBe('20 BUY/SELL signals: 6 traded; 14 did not trade.');

    const banner = screen.getByRole('note', { name: 'Assumptions' }).textContent!;
    expect(banner).toContain('Taker fee 0.60%');
    expect(banner).toContain('slippage 0 bps');
    expect(banner).toContain('timeframe 1 hour');
    expect(banner).toContain('1,473 candles');
    expect(banner).toContain('engine v1');
    expect(banner).not.toContain('AI provider');
    expect(banner).toContain('half-spread 0.0050%');
    expect(screen.getByTestId('bt-policy').textContent).toContain('stop-loss 2.00% · take-profit off · max position 10.00% · daily loss limit 5.00% · max drawdown 15.00%');
    // The data period and source, by real market dates.
    expect(screen.getByTestId('bt-data').textContent).toBe('Data: coinbase (shipped), real market dates 12/29/2025 15:00 UTC to 03/01/2026 00:00 UTC (1,473 candles read: 57 to warm up + 1,416 in the period).');
    expect(screen.queryByTestId('bt-synthetic')).toBeNull();

    const trades = within(screen.getByRole('table', { name: 'Backtest trades' })).getAllByRole('row');
    expect(trades).toHaveLength(3);
    expect(trades[2]!.textContent).toContain('Stop-loss');
    expect(trades[2]!.textContent).toContain('-$31.60');
    expect(screen.getByText('Position already at its target size')).toBeTruthy();
    expect(screen.getByTestId('equity-chart')).toBeTruthy();
    expect(screen.getByTestId('fills-chart')).toBeTruthy();
    // The new run heads the history.
    expect(await screen.findByRole('button', { name: /technical_strategy · BTC-USD/ })).toBeTruthy();
  });

  it('says so in the banner when the candles were cut from generated paths', async () => {
    const base = report();
    mockServer({ post: () => ok(report({ assumptions: { ...base.assumptions, timeframe: 'FIVE_MINUTE', data: { ...base.assumptions.data, synthetic: true } } }), 201) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    expect((await screen.findByTestId('bt-synthetic')).textContent).toContain('Synthetic candles');
  });

  it('shows N/A for the ratios without a loss and the AI provider when the run used one', async () => {
    mockServer({ post: () => ok(report({ losing_trades: 0, winning_trades: 4, profit_factor: null, win_loss_ratio: null, cagr: null, calmar_ratio: null, not_annualised: 'CAGR and Calmar are not annualised for runs shorter than 30 days (this one: 8.0 days)', assumptions: { ...report().assumptions, ai_provider: 'Built-in analyst' } }), 201) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    await screen.findByText('Backtest completed successfully');
    const metrics = within(screen.getByTestId('bt-metrics'));
    expect(metrics.getByText('Profit Factor').parentElement!.textContent).toBe('Profit FactorN/A');
    expect(metrics.getByText('Win/Loss Ratio').parentElement!.textContent).toBe('Win/Loss RatioN/A');
    expect(metrics.getByText('CAGR').parentElement!.textContent).toBe('CAGRN/A');
    expect(metrics.getByText('Calmar Ratio').parentElement!.textContent).toBe('Calmar RatioN/A');
    expect(screen.getByText(/not annualised for runs shorter than 30 days/)).toBeTruthy();
    expect(screen.getByRole('note', { name: 'Assumptions' }).textContent).toContain('AI provider Built-in analyst');
  });

  it('offers the AI modes only for AI strategies, and runs a live model only after its estimate is confirmed', async () => {
    const estimate: LiveEstimate = {
      status: 'confirmation_required', strategy_name: 'ai_strategy', symbol: 'BTC-USD', provider: 'openai', model: 'gpt-4.1-nano', model_calls: 1415, max_model_calls: 2830, model_call_cap: 2000,
      training_cutoff: '2024-06-01', warnings: ["These candles are real prices from 2024-05-01 on, before gpt-4.1-nano's training cutoff (2024-06-01): the model may remember them."], message: 'confirm',
    };
    const ai = { mode: 'live' as const, provider: 'openai', model: 'gpt-4.1-nano', prompts: 1415, model_calls: 1417, model_call_cap: 2000, prompt_tokens: 1000, completion_tokens: 200, recorded: 0, missing: 0, failed: 2, summary: '1415 model calls to openai (gpt-4.1-nano); 2 failed and counted as HOLD', warnings: estimate.warnings };
    const calls = mockServer({
      post: (body) => ((body as BacktestAsk).confirm_live ? ok(report({ strategy_name: 'ai_strategy', ai, assumptions: { ...report().assumptions, ai_mode: 'live', ai_provider: 'gpt-4.1-nano' } }), 201) : ok(estimate)),
    });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    expect(screen.queryByLabelText('AI decisions')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), 'ai_strategy');
    await userEvent.selectOptions(screen.getByLabelText('AI decisions'), 'live');
    await run();

    const box = within(await screen.findByTestId('bt-live-estimate'));
    expect(box.getByTestId('bt-model-calls').textContent).toBe('1,415');
    expect(box.getByText('Training cutoff: 2024-06-01')).toBeTruthy();
    expect(box.getByRole('alert').textContent).toContain('may remember');
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0]!.body).toMatchObject({ strategy_name: 'ai_strategy', ai_mode: 'live' });
    expect((posts(calls)[0]!.body as BacktestAsk).confirm_live).toBeUndefined();

    await userEvent.click(box.getByRole('button', { name: 'Run with 1,415 model calls' }));
    expect(await screen.findByText('Backtest completed successfully')).toBeTruthy();
    expect(posts(calls)[1]!.body).toMatchObject({ ai_mode: 'live', confirm_live: true });
    expect(screen.queryByTestId('bt-live-estimate')).toBeNull();
    const note = screen.getByRole('note', { name: 'AI run' }).textContent!;
    expect(note).toContain('AI decisions: Live model');
    expect(note).toContain('2 failed and counted as HOLD');
    expect(screen.getByTestId('bt-model-usage').textContent).toBe('Model calls: 1,417 (cap 2,000) · tokens 1,200 · cost not reported by the provider');
    expect(screen.getByRole('note', { name: 'Assumptions' }).textContent).toContain('AI decisions: Live model');

    // Back to a technical strategy: the mode resets and is not sent.
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), 'technical_strategy');
    expect(screen.queryByLabelText('AI decisions')).toBeNull();
    await run();
    await vi.waitFor(() => expect(posts(calls)).toHaveLength(3));
    expect((posts(calls)[2]!.body as BacktestAsk).ai_mode).toBeUndefined();
  });

  it('offers a trader no live model: it spends the platform budget', async () => {
    mockServer({ role: 'trader' });
    renderScreen();
    await fillForm({ strategy: 'ai_strategy' });
    const live = await screen.findByRole('option', { name: 'Live model (operators only)' });
    expect((live as HTMLOptionElement).disabled).toBe(true);
    expect((screen.getByRole('option', { name: 'Recorded decisions' }) as HTMLOptionElement).disabled).toBe(false);
  });

  it('cancels a live estimate without running anything', async () => {
    const calls = mockServer({
      post: () => ok({ status: 'confirmation_required', strategy_name: 'ai_strategy', symbol: 'BTC-USD', provider: 'openai', model: 'local', model_calls: 10, max_model_calls: 20, model_call_cap: 2000, warnings: ['The training cutoff of local is unknown'], message: 'm' }),
    });
    renderScreen();
    await fillForm({ strategy: 'ai_strategy', start: '2026-01-01', end: '2026-03-01' });
    await userEvent.selectOptions(screen.getByLabelText('AI decisions'), 'live');
    await run();
    const box = within(await screen.findByTestId('bt-live-estimate'));
    expect(box.getByText('Training cutoff: unknown')).toBeTruthy();
    await userEvent.click(box.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('bt-live-estimate')).toBeNull();
    expect(screen.getByText('No Backtest Results')).toBeTruthy();
    expect(posts(calls)).toHaveLength(1);
  });

  it('sends parameter overrides and refuses ones that are not a JSON object', async () => {
    const calls = mockServer({ post: () => ok(report(), 201) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await userEvent.click(screen.getByRole('button', { name: 'Parameter overrides (optional)' }));
    const params = screen.getByLabelText('Parameter overrides (JSON)');
    await userEvent.type(params, '[[1');
    await run();
    expect(screen.getByText('Parameter overrides must be a JSON object')).toBeTruthy();
    await userEvent.clear(params);
    await userEvent.type(params, '{{"timeframe": "FIFTEEN_MINUTE"}');
    await run();
    await screen.findByText('Backtest completed successfully');
    expect((posts(calls)[0]!.body as { params: unknown }).params).toEqual({ timeframe: 'FIFTEEN_MINUTE' });
  });

  it("shows 'Failed to run backtest' with the server's reason and its field message", async () => {
    mockServer({ post: () => failure(400, 'Backtest period cannot exceed 365 days', { end_date: 'Backtest period cannot exceed 365 days' }) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to run backtest: Backtest period cannot exceed 365 days');
    expect(screen.getByLabelText('End Date').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('No Backtest Results')).toBeTruthy();
  });

  it("shows 'Failed to run backtest' when the server fails without a reason", async () => {
    mockServer({ post: () => new Response('oops', { status: 502 }) });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Failed to run backtest/);
  });

  it("shows 'Backtest failed to complete' and the reason when the run failed", async () => {
    mockServer({ post: () => ok(report(), 201), outcome: (r) => [{ ...running(r, 0), status: 'failed', error: 'No candles for BTC-USD in this period' }] });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    expect(await screen.findByText('Backtest failed to complete')).toBeTruthy();
    expect(screen.getByText('Backtest failed: No candles for BTC-USD in this period')).toBeTruthy();
    expect(screen.queryByText('Backtest completed successfully')).toBeNull();
    expect(within(await screen.findByTestId('bt-history-status')).getByText('(failed)')).toBeTruthy();
  });

  it('shows a queued run with a progress bar and cancels it', async () => {
    const calls = mockServer({ post: () => ok(report(), 201), outcome: (r) => [running(r, 0.4)] });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    const bar = await screen.findByRole('progressbar', { name: 'Backtest progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByTestId('bt-job-status').textContent).toBe('Running');
    expect(screen.getByText(/40% of the candles done/)).toBeTruthy();
    expect(screen.queryByText('Backtest completed successfully')).toBeNull();
    expect(within(await screen.findByTestId('bt-history-status')).getByText('(running 40%)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Backtest cancelled: Cancelled by op@example.com')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(posts(calls).map((c) => c.path)).toEqual(['/backtests', '/backtests/run-1111-aaaa/cancel']);
    expect(within(await screen.findByTestId('bt-history-status')).getByText('(cancelled)')).toBeTruthy();
  });

  it('follows a running backtest until its report arrives', async () => {
    mockServer({ post: () => ok(report(), 201), outcome: (r) => [running(r, 0.25), done(r)] });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await run();
    expect((await screen.findByRole('progressbar')).getAttribute('aria-valuenow')).toBe('25');
    expect(await screen.findByText('Backtest completed successfully', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('bt-report')).toBeTruthy();
  });

  it('opens a past run from the history and compares two side by side', async () => {
    const older = report({ id: 'run-aaaa', created_at: '2026-04-01T10:00:00Z', total_return: 0.1234, total_trades: 4 });
    const newer = report({ id: 'run-bbbb', created_at: '2026-04-02T10:00:00Z', symbol: 'ETH-USD', total_return: -0.05, total_trades: 9, request: { ...older.request, symbol: 'ETH-USD', params: { timeframe: 'FIFTEEN_MINUTE' } } });
    const calls = mockServer({ stored: [newer, older] });
    renderScreen();
    const rows = await screen.findAllByTestId('bt-history-row');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('ETH-USD'), expect.stringContaining('BTC-USD')]);
    // Each past run says how it did and what it overrode.
    expect(rows.map((r) => within(r).getByTestId('bt-history-return').textContent)).toEqual(['-5.00%', '+12.34%']);
    expect(rows.map((r) => within(r).getByTestId('bt-history-overrides').textContent)).toEqual(['Overrides: timeframe 15 minutes', 'Saved settings']);

    await userEvent.click(within(rows[1]!).getByRole('button'));
    expect(await screen.findByTestId('bt-report')).toBeTruthy();
    expect(within(screen.getByTestId('bt-total-return')).getByText('+12.34%')).toBeTruthy();
    expect(calls.some((c) => c.path === '/backtests/run-aaaa')).toBe(true);
    await userEvent.click(within(rows[0]!).getByRole('button'));
    expect(await screen.findByText('ETH-USD', { selector: 'span' })).toBeTruthy();
    // Opening a run puts its request into the form, to run it again with changes.
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('ETH-USD');
    expect((screen.getByLabelText('Strategy') as HTMLSelectElement).value).toBe('technical_strategy');
    expect((screen.getByLabelText('Start Date') as HTMLInputElement).value).toBe('2026-01-01');
    expect((screen.getByLabelText('Parameter overrides (JSON)') as HTMLTextAreaElement).value).toBe('{"timeframe":"FIFTEEN_MINUTE"}');

    const compare = screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement;
    expect(compare.disabled).toBe(true);
    await userEvent.click(within(rows[0]!).getByRole('checkbox'));
    await userEvent.click(within(rows[1]!).getByRole('checkbox'));
    expect(compare.disabled).toBe(false);
    await userEvent.click(compare);
    const table = await screen.findByRole('table', { name: 'Run comparison' });
    const line = (label: string) => [...within(table).getByText(label).closest('tr')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(line('Symbol')).toEqual(['Symbol', 'ETH-USD', 'BTC-USD']);
    expect(line('Total Return')).toEqual(['Total Return', '-5.00%', '+12.34%']);
    expect(line('Total Trades')).toEqual(['Total Trades', '9', '4']);
    expect(line('Parameter Overrides')).toEqual(['Parameter Overrides', '{"timeframe":"FIFTEEN_MINUTE"}', 'none']);
    // Both equity curves on one chart, in the table's order.
    expect(screen.getByTestId('compare-equity').textContent).toBe('run-bbbb run-aaaa');
    expect(screen.queryByTestId('bt-report')).toBeNull();

    await userEvent.click(within(table.closest('section')!).getByRole('button', { name: 'Close' }));
    expect(await screen.findByTestId('bt-report')).toBeTruthy();
  });
});

describe('backtest model', () => {
  it('has no period until the store says which dates it holds, then the last three months of them', () => {
    const f = defaultForm();
    expect([f.start_date, f.end_date, f.initial_capital]).toEqual(['', '', '10000']);
    // The symbol's span over every stored width, as the server reads it.
    const span = symbolSpan([...coverage, { ...coverage[0]!, granularity: 'ONE_HOUR', from: '2024-04-18T16:00:00Z', to: '2026-05-08T17:00:00Z' }], 'btc-usd')!;
    expect(span).toEqual({ symbol: 'BTC-USD', from: '2024-04-18T16:00:00Z', to: '2026-05-08T17:00:00Z' });
    expect(periodEndingAt(span.to)).toEqual({ start_date: '2026-02-08', end_date: '2026-05-08' });
    expect(coverageMessage(span)).toBe('Market data for BTC-USD covers 2024-04-18 to 2026-05-07');
    const x = { ...f, strategy_name: 'x', ...periodEndingAt(span.to) };
    expect(validateBacktest(x, span)).toEqual({});
    // A period past the newest whole day is refused with the server's words, before asking it.
    expect(validateBacktest({ ...x, start_date: '2026-03-01', end_date: '2026-05-09' }, span)).toEqual({ end_date: 'Market data for BTC-USD covers 2024-04-18 to 2026-05-07' });
    expect(validateBacktest({ ...x, start_date: '2024-04-17', end_date: '2024-06-01' }, span)).toEqual({ start_date: 'Market data for BTC-USD covers 2024-04-18 to 2026-05-07' });
  });

  it('sends the AI mode only when it is not the built-in analyst', () => {
    const f = { ...defaultForm(), strategy_name: 'ai_strategy' };
    expect(toAsk(f).ai_mode).toBeUndefined();
    expect(toAsk({ ...f, ai_mode: 'recorded' }).ai_mode).toBe('recorded');
  });

  it('sends slippage in basis points and bounds it like the server', () => {
    const f = { ...defaultForm(), strategy_name: 'x', start_date: '2026-02-20', end_date: '2026-05-20' };
    expect(validateBacktest({ ...f, slippage_bps: '1500' }).slippage_bps).toBe('Slippage must be between 0 and 1000 basis points');
    expect(toAsk({ ...f, slippage_bps: '25' }).slippage_bps).toBe(25);
    expect(toAsk(f).slippage_bps).toBeUndefined();
    expect(toAsk({ ...f, volume_cap_pct: '2.5' }).volume_cap).toBe(0.025);
    expect(validateBacktest({ ...f, volume_cap_pct: '150' }).volume_cap_pct).toContain('between 0 and 100%');
  });

  it('puts each fill on the candle it falls in, in time order', () => {
    const h = (iso: string) => Date.parse(iso) / 1000;
    const times = [h('2026-01-01T00:00:00Z'), h('2026-01-01T06:00:00Z'), h('2026-01-01T12:00:00Z')];
    const fill = (side: 'BUY' | 'SELL', time: string, reason = 'signal') => ({ side, time, price: '1', quantity: '1', fee: '0', reason });
    expect(fillMarkers([fill('SELL', '2026-01-01T13:00:00Z', 'stop_loss'), fill('BUY', '2026-01-01T07:00:00Z'), fill('BUY', '2025-12-31T23:00:00Z')], times)).toEqual([
      { time: times[1], side: 'BUY', reason: 'signal' },
      { time: times[2], side: 'SELL', reason: 'stop_loss' },
    ]);
  });

  it("charts at the strategy's timeframe unless the period needs more than 2500 candles", () => {
    expect(chartGranularity('ONE_HOUR', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toBe('ONE_HOUR');
    expect(chartGranularity('FIFTEEN_MINUTE', '2026-01-01T00:00:00Z', '2026-01-20T00:00:00Z')).toBe('FIFTEEN_MINUTE');
    expect(chartGranularity('FIFTEEN_MINUTE', '2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z')).toBe('ONE_HOUR');
    expect(chartGranularity('ONE_MINUTE', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toBe('SIX_HOUR');
  });
  it("builds the overrides from the strategy's parameters and shows the server's refusal of a key it does not have", async () => {
    let answer = () => failure(400, 'Invalid', { params: 'Unknown parameter for a technical strategy: rsi_perod' });
    const calls = mockServer({ post: () => answer() });
    renderScreen();
    await fillForm({ strategy: 'technical_strategy', start: '2026-01-01', end: '2026-03-01' });
    await userEvent.click(screen.getByRole('button', { name: 'Parameter overrides (optional)' }));
    const oversold = (await screen.findByLabelText('RSI oversold')) as HTMLInputElement;
    expect(oversold.placeholder).toBe('30'); // the saved value
    expect(screen.getByLabelText('Bollinger std. dev.')).toBeTruthy();
    await userEvent.type(oversold, '40');
    await userEvent.selectOptions(screen.getByLabelText('Timeframe'), 'FIFTEEN_MINUTE');
    const json = screen.getByLabelText('Parameter overrides (JSON)') as HTMLTextAreaElement;
    expect(JSON.parse(json.value)).toEqual({ indicators: { rsi_oversold: 40 }, timeframe: 'FIFTEEN_MINUTE' });
    // A typo in the JSON is the server's to refuse: shown under the overrides, nothing run.
    await userEvent.clear(json);
    await userEvent.type(json, '{{"indicators": {{"rsi_perod": 10}}');
    await run();
    expect(await screen.findByText('Unknown parameter for a technical strategy: rsi_perod')).toBeTruthy();
    expect(screen.queryByTestId('bt-report')).toBeNull();
    // Fixed in the fields: clearing one removes it.
    await userEvent.clear(json);
    await userEvent.type(screen.getByLabelText('RSI oversold'), '35');
    await userEvent.type(screen.getByLabelText('Short SMA'), '5');
    await userEvent.clear(screen.getByLabelText('Short SMA'));
    answer = () => ok(report(), 201);
    await run();
    await screen.findByText('Backtest completed successfully');
    expect((posts(calls).at(-1)!.body as { params: unknown }).params).toEqual({ indicators: { rsi_oversold: 35 } });
  });

  it('says first when the drawdown limit halted trading, with the days it left untraded', async () => {
    const r = report({ halted: { reason: 'Maximum drawdown reached (limit 15%)', at: '2026-01-20T14:00:00Z', refused: 12, untraded_days: 40, total_days: 59 } });
    mockServer({ stored: [r] });
    renderScreen();
    await userEvent.click(within((await screen.findAllByTestId('bt-history-row'))[0]!).getByRole('button'));
    const callout = await screen.findByTestId('bt-halted');
    expect(callout.textContent).toContain('Trading halted: Maximum drawdown reached (limit 15%) on 01/20/2026: 40 of 59 days untraded.');
    expect(callout.textContent).toContain('The limit refused 12 signals');
    // Before the assumptions and the figures.
    const report_ = screen.getByTestId('bt-report');
    expect(report_.querySelector('[data-testid="bt-halted"] ~ [aria-label="Assumptions"]')).toBeTruthy();
  });

  it('has no halt callout for a run that traded to the end', async () => {
    mockServer({ stored: [report()] });
    renderScreen();
    await userEvent.click(within((await screen.findAllByTestId('bt-history-row'))[0]!).getByRole('button'));
    await screen.findByTestId('bt-report');
    expect(screen.queryByTestId('bt-halted')).toBeNull();
  });
});
