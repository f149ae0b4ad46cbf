import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { heatColor, heatmap, sortTrials, sweepableParams, toSweepAsk, validateResearch, defaultResearchForm } from './model';
import type { Sweep, SweepTrial } from './types';
import Research from './routes/Research';

// The stitched curve draws on a canvas, which jsdom lacks; the end-to-end test sees it.
vi.mock('./components/StitchedChart', () => ({ StitchedChart: () => <div data-testid="stitched-chart" /> }));

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown, status = 200) => json(status, { success: true, data });
const failure = (status: number, message: string) => json(status, { success: false, error: { code: 'not_found', message } });

function trial(index: number, rsi: number, sma: number, score: number | null, eligible = true): SweepTrial {
  return {
    index,
    values: { 'indicators.rsi_period': rsi, 'indicators.sma_long': sma },
    params: { indicators: { rsi_period: rsi, sma_long: sma } },
    metrics: { total_return: score ?? 0, sharpe_ratio: 1, total_trades: 3, max_drawdown: 0.05, win_rate: 0.5 },
    score,
    trades: 3,
    finished_at: '2026-05-01T10:00:00Z',
    eligible,
    ...(eligible ? {} : { note: 'fewer trades' }),
  };
}

const trials = [trial(0, 7, 20, 0.1), trial(1, 7, 60, -0.05), trial(2, 21, 20, 0.3), trial(3, 21, 60, null, false)];

describe('research model', () => {
  it('builds the heatmap of the best eligible score per pair of values', () => {
    const h = heatmap(trials, 'indicators.rsi_period', 'indicators.sma_long');
    expect(h.xs).toEqual([7, 21]);
    expect(h.ys).toEqual([20, 60]);
    expect(h.cells[0]!.map((c) => c.score)).toEqual([0.1, 0.3]);
    expect(h.cells[1]!.map((c) => c.score)).toEqual([-0.05, null]); // trial 3 is not eligible
    expect([h.min, h.max]).toEqual([-0.05, 0.3]);
    // Centred on zero: the best is the deepest green, a loss red, zero grey.
    expect(heatColor(0.3, -0.05, 0.3)).toBe('hsl(142 80% 38%)');
    expect(heatColor(-0.05, -0.05, 0.3)).toMatch(/^hsl\(0 /);
    expect(heatColor(0, -0.05, 0.3)).toBe('hsl(215 16% 47%)');
  });

  it('never colours a loss green, even when every trial lost', () => {
    // The least bad of three losses was the top of the old min-to-max scale: bright green.
    for (const s of [-0.2, -0.1, -0.01]) expect(heatColor(s, -0.2, -0.01)).toMatch(/^hsl\(0 /);
    expect(heatColor(-0.2, -0.2, -0.01)).toBe('hsl(0 80% 38%)');
    // A profit factor breaks even at 1: below it is a loss.
    expect(heatColor(0.8, 0.5, 1.5, 1)).toMatch(/^hsl\(0 /);
    expect(heatColor(1.2, 0.5, 1.5, 1)).toMatch(/^hsl\(142 /);
  });

  it('sorts trials by a column, undefined last', () => {
    expect(sortTrials(trials, 'score', true).map((t) => t.index)).toEqual([2, 0, 1, 3]);
    expect(sortTrials(trials, 'score', false).map((t) => t.index)).toEqual([1, 0, 2, 3]);
    expect(sortTrials(trials, 'param:indicators.sma_long', false).map((t) => t.index)).toEqual([0, 2, 1, 3]);
  });

  it('finds the numeric parameters and asks with the config shape names', () => {
    expect(sweepableParams({ name: 'x', min_confidence: 0.6, timeframe: 'ONE_HOUR', indicators: { rsi_period: 14 } })).toEqual([
      { name: 'min_confidence', value: 0.6 },
      { name: 'indicators.rsi_period', value: 14 },
    ]);
    const f = { ...defaultResearchForm(), strategy_name: 's', start_date: '2026-01-01', end_date: '2026-02-15' };
    expect(validateResearch(f).space).toBe('Add at least one parameter to vary');
    f.rows = [{ name: 'indicators.rsi_period', values: '7, 21', min: '', max: '', step: '' }];
    f.walk_forward = true;
    f.wf_fraction = '1';
    expect(validateResearch(f)['walk_forward.in_sample_fraction']).toMatch(/between 0 and 1/);
    f.wf_fraction = '0.6';
    expect(toSweepAsk(f)).toMatchObject({ grid: { 'indicators.rsi_period': [7, 21] }, walk_forward: { mode: 'rolling', folds: 4, in_sample_fraction: 0.6 }, objective: 'sharpe' });
  });
});

function sweep(over: Partial<Sweep> = {}): Sweep {
  return {
    id: 'sw-1111-aaaa',
    status: 'completed',
    progress: 1,
    created_at: '2026-05-01T10:00:00Z',
    request: { strategy_name: 'technical_strategy', initial_capital: '10000', objective: 'total_return' },
    objective: 'total_return',
    parameters: ['indicators.rsi_period', 'indicators.sma_long'],
    trial_count: 4,
    trials,
    best: trials[2]!,
    walk_forward: { mode: 'rolling', folds: 2, in_sample_fraction: 0.6 },
    folds: [0, 1].map((k) => ({
      fold: k,
      in_sample_period: { start: `2026-01-0${k + 1}`, end: '2026-01-20' },
      out_of_sample_period: { start: '2026-01-20', end: '2026-02-01' },
      status: 'completed',
      in_sample_done: 4,
      trial: 2,
      values: trials[2]!.values,
      params: trials[2]!.params,
      in_sample: { total_return: 0.2 },
      out_of_sample: { total_return: k === 0 ? -0.01 : 0.04 },
      in_sample_annualised_return: 1.2,
      out_of_sample_annualised_return: 0.6,
      efficiency: 0.5,
    })),
    stitched_equity: [{ time: '2026-01-20T01:00:00Z', equity: '9990', fold: 0 }],
    stitched_return: 0.0296,
    walk_forward_efficiency: 0.5,
    parameter_stability: { 'indicators.rsi_period': { values: [21, 21], modal_value: 21, modal_share: 1, dispersion: 0 } },
    deflated_sharpe: { trial: 2, trials: 4, sharpe: 0.05, sharpe_annualised: 4.68, sharpe_variance: 0.001, expected_max_sharpe: 0.03, observations: 1000, skewness: 0, kurtosis: 3, probability: 0.874 },
    runs: 15,
    runs_planned: 15,
    notes: [],
    ...over,
  } as Sweep;
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server: POST /sweeps queues; GET /sweeps/{id} answers the first state until a cancel is posted, then the last; versions are not there (404) unless given. */
function mockServer(states: Sweep[], versions?: () => Response, list: unknown[] = []) {
  const calls: Call[] = [];
  let cancelled = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://x');
      const c: Call = { method: init?.method ?? 'GET', path: u.pathname.replace(/^\/api/, ''), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      if (c.method === 'POST' && c.path === '/sweeps') return ok({ id: 'sw-1111-aaaa', status: 'queued' }, 202);
      if (c.path === '/sweeps') return ok(list);
      if (versions && c.method === 'POST' && c.path.startsWith('/strategy/versions/')) return versions();
      if (c.path === '/sweeps/sw-1111-aaaa/cancel') {
        cancelled = true;
        return ok({ id: 'sw-1111-aaaa', status: 'cancelled' });
      }
      if (c.path === '/sweeps/sw-1111-aaaa') return ok(cancelled ? states[states.length - 1] : states[0]);
      if (c.path === '/strategy/list') return ok({ strategies: [{ name: 'technical_strategy', type: 'technical', is_active: false, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: {} }] });
      if (c.path === '/strategy/config/technical_strategy')
        return ok({ name: 'technical_strategy', type: 'technical', min_confidence: 0.6, timeframe: 'ONE_HOUR', indicators: { rsi_period: 14, sma_long: 50 } });
      if (c.path === '/market-data/coverage') return ok({ coverage: [] });
      if (c.path === '/auth/me') return ok({ id: 'u1', email: 'r@example.com', name: 'R', role: 'trader' });
      return failure(404, `Not found: ${c.path}`);
    }),
  );
  return calls;
}

function renderScreen() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <Research />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('t'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Research screen', () => {
  it('runs a two-parameter grid with walk-forward: progress and Cancel, then the heatmap, folds and trials', async () => {
    const calls = mockServer([sweep({ status: 'running', progress: 0.4, trials: trials.slice(0, 2), runs: 6, best: null }), sweep()]);
    renderScreen();
    await screen.findByRole('option', { name: 'technical_strategy' }, { timeout: 5000 });
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), 'technical_strategy');
    await screen.findByRole('option', { name: /indicators.rsi_period \(now 14\)/ });
    await userEvent.selectOptions(screen.getByLabelText('Add a parameter'), 'indicators.rsi_period');
    await userEvent.selectOptions(screen.getByLabelText('Add a parameter'), 'indicators.sma_long');
    await userEvent.clear(screen.getByLabelText('Values of indicators.rsi_period'));
    await userEvent.type(screen.getByLabelText('Values of indicators.rsi_period'), '7, 21');
    await userEvent.clear(screen.getByLabelText('Values of indicators.sma_long'));
    await userEvent.type(screen.getByLabelText('Values of indicators.sma_long'), '20, 60');
    await userEvent.type(screen.getByLabelText('Start date'), '2026-01-01');
    await userEvent.type(screen.getByLabelText('End date (exclusive)'), '2026-02-15');
    await userEvent.click(screen.getByLabelText('Walk-forward validation'));
    await userEvent.click(screen.getByRole('button', { name: 'Run Sweep' }));

    // The progress bar and Cancel while it runs.
    const bar = await screen.findByRole('progressbar', { name: 'Sweep progress' }, { timeout: 5000 });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText(/6 of 15 backtests/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/sweeps/sw-1111-aaaa/cancel')).toBe(true), { timeout: 5000 });
    const post = calls.find((c) => c.method === 'POST' && c.path === '/sweeps')!;
    expect(post.body).toMatchObject({
      strategy_name: 'technical_strategy',
      grid: { 'indicators.rsi_period': [7, 21], 'indicators.sma_long': [20, 60] },
      walk_forward: { mode: 'rolling', folds: 4, in_sample_fraction: 0.7 },
    });

    // Completed: the heatmap with every cell's value and its legend.
    await screen.findByTestId('sweep-done', {}, { timeout: 5000 });
    const cells = screen.getAllByTestId('heat-cell').map((c) => c.textContent);
    expect(cells).toEqual(['0.1', '0.3', '-0.05', 'N/A']);
    expect(screen.getByTestId('heat-legend').textContent).toContain('-0.05');
    expect(screen.getByTestId('heat-legend').textContent).toContain('0.3');
    // The folds and the walk-forward figures from the server.
    expect(within(screen.getByTestId('fold-bars')).getAllByText(/^Fold \d/)).toHaveLength(2);
    expect(screen.getByTestId('wf-figures').textContent).toContain('87.4%');
    expect(screen.getByTestId('wf-figures').textContent).toContain('0.500');
    // The trials table, best first by the objective; a click on # sorts by index.
    const rows = () => within(screen.getByTestId('trials-table')).getAllByRole('row').slice(1);
    expect(rows()[0]!.textContent).toMatch(/^2best/);
    await userEvent.click(screen.getByRole('button', { name: '#' }));
    expect(rows()[0]!.textContent).toMatch(/^3/);
  }, 30_000);

  it('flags the trials a risk limit halted, ranks the best among those that traded on, and colours a loss red', async () => {
    const halt = { reason: 'Maximum drawdown reached (limit 15%)', at: '2026-01-12T09:00:00Z', refused: 40, untraded_days: 30, total_days: 45 };
    const ts = [trial(0, 7, 20, 0.1), trial(1, 7, 60, -0.05), { ...trial(2, 21, 20, 0.3), halted: halt }, trial(3, 21, 60, null, false)];
    const done = sweep({ trials: ts, best: ts[0]! });
    mockServer([done], undefined, [{ id: done.id, status: 'completed', progress: 1, created_at: done.created_at, strategy_name: 'technical_strategy', symbol: 'BTC-USD', objective: 'total_return' }]);
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: /technical_strategy · BTC-USD · total_return · completed/ }, { timeout: 5000 }));
    await screen.findByTestId('sweep-done', {}, { timeout: 5000 });
    expect(screen.getByTestId('sweep-halted').textContent).toBe('1 of them halted by a risk limit: flagged below, and never ranked best.');
    const rows = within(screen.getByTestId('trials-table')).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toMatch(/^2halted 2026-01-12/); // the highest score, flagged, not best
    expect(within(rows[0]!).getByTestId('trial-halted').title).toBe('Maximum drawdown reached (limit 15%) on 2026-01-12: 40 signals refused, 30 of 45 days untraded');
    expect(rows[1]!.textContent).toMatch(/^0best/);
    // The heatmap: the halted trial's cell says so; the loss is red (hue 0), the gains green.
    const cells = screen.getAllByTestId('heat-cell');
    expect(cells[1]!.getAttribute('data-halted')).toBe('true');
    expect(cells[2]!.textContent).toBe('-0.05');
    expect(cells[2]!.getAttribute('style')).toMatch(/background: (hsl\(0 |rgb\((\d+), (\d+))/);
    const rgb = /rgb\((\d+), (\d+), (\d+)\)/.exec(cells[2]!.getAttribute('style') ?? '');
    if (rgb) expect(Number(rgb[1])).toBeGreaterThan(Number(rgb[2])); // more red than green
    // Walk-forward: the risk limits start afresh each fold, and the deflated Sharpe's trials count as independent.
    expect(screen.getByText(/its risk limits start afresh/)).toBeTruthy();
    expect(screen.getByTestId('dsr-trials-note').textContent).toMatch(/^The 4 trials count as independent/);
  }, 30_000);

  it('shows the server refusal when a version cannot be saved', async () => {
    const calls = mockServer([sweep({ request: { strategy_name: 'technical_strategy', initial_capital: '10000', objective: 'total_return', strategy_version: 3 } as Sweep['request'] })]);
    renderScreen();
    await screen.findByRole('option', { name: 'technical_strategy' }, { timeout: 5000 });
    // Open the sweep from a submitted one: submit the smallest form.
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), 'technical_strategy');
    await screen.findByRole('option', { name: /indicators.rsi_period/ });
    await userEvent.selectOptions(screen.getByLabelText('Add a parameter'), 'indicators.rsi_period');
    await userEvent.type(screen.getByLabelText('Start date'), '2026-01-01');
    await userEvent.type(screen.getByLabelText('End date (exclusive)'), '2026-02-15');
    await userEvent.click(screen.getByRole('button', { name: 'Run Sweep' }));
    await screen.findByTestId('sweep-done', {}, { timeout: 5000 });
    const best = within(screen.getByTestId('trials-table')).getAllByRole('row')[1]!;
    await userEvent.click(within(best).getByRole('button', { name: 'Save as new version' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save version' }));
    await waitFor(() => expect(screen.getByTestId('save-version').textContent).toContain('Not saved: Not found: /strategy/versions/technical_strategy'), { timeout: 5000 });
    const save = calls.find((c) => c.method === 'POST' && c.path === '/strategy/versions/technical_strategy')!;
    // The parent is the version the sweep ran with.
    expect(save.body).toMatchObject({ params: { indicators: { rsi_period: 21, sma_long: 20 } }, parent: 3 });
    expect(screen.queryByText(/Saved as version/)).toBeNull();
  }, 30_000);

  it('says which version the server saved', async () => {
    mockServer([sweep()], () => ok({ version: { version: 4 }, config: {} }, 201));
    renderScreen();
    await screen.findByRole('option', { name: 'technical_strategy' }, { timeout: 5000 });
    await userEvent.selectOptions(screen.getByLabelText('Strategy'), 'technical_strategy');
    await screen.findByRole('option', { name: /indicators.rsi_period/ });
    await userEvent.selectOptions(screen.getByLabelText('Add a parameter'), 'indicators.rsi_period');
    await userEvent.type(screen.getByLabelText('Start date'), '2026-01-01');
    await userEvent.type(screen.getByLabelText('End date (exclusive)'), '2026-02-15');
    await userEvent.click(screen.getByRole('button', { name: 'Run Sweep' }));
    await screen.findByTestId('sweep-done', {}, { timeout: 5000 });
    const best = within(screen.getByTestId('trials-table')).getAllByRole('row')[1]!;
    await userEvent.click(within(best).getByRole('button', { name: 'Save as new version' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save version' }));
    await waitFor(() => expect(screen.getByTestId('save-version').textContent).toContain('Saved as version 4 of technical_strategy'), { timeout: 5000 });
  }, 30_000);
});
