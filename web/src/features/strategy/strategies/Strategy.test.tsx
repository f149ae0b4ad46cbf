import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toCSV } from '@/lib/csv';
import { setToken } from '@/lib/token';
import { applySignal, strategyKeys } from './api';
import { CSV_COLUMNS, evaluationRows, parseSymbols, rsiStatus } from './model';
import AIStrategy from '../ai/routes/AIStrategy';
import StrategyHistory from './routes/StrategyHistory';
import StrategyManagement from './routes/StrategyManagement';
import StrategyPerformance from './routes/StrategyPerformance';
import TechnicalStrategy from './routes/TechnicalStrategy';
import type { Evaluation, Strategy, StrategyConfig } from './types';
import { productsAnswer } from '@/test/products';

const indicators = { rsi_period: 14, rsi_oversold: 30, rsi_overbought: 70, sma_short: 10, sma_long: 20, macd_fast: 12, macd_slow: 26, macd_signal: 9, bollinger_period: 20, bollinger_std: 2 };
const technical: StrategyConfig = { name: 'technical_strategy', type: 'technical', enabled: false, min_confidence: 0.6, max_position_size: 0.15, risk_multiplier: 1.2, symbols: ['BTC-USD', 'ETH-USD'], timeframe: 'ONE_HOUR', indicators };
const ai: StrategyConfig = { name: 'ai_strategy', type: 'ai_driven', enabled: true, min_confidence: 0.7, max_position_size: 0.1, risk_multiplier: 1, symbols: ['BTC-USD', 'ETH-USD'], timeframe: 'ONE_HOUR', model: 'gpt-4.1-nano', max_tokens: 500, temperature: 0.3, context_length: 50, parameters: {} };
const summary = (c: StrategyConfig, over: Partial<Strategy> = {}): Strategy => ({ name: c.name, type: c.type, is_active: c.enabled, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: c, ...over });

const ev = (over: Partial<Evaluation>): Evaluation => ({
  id: 'e1',
  timestamp: '2026-05-10T12:00:00Z',
  strategy_name: 'technical_strategy',
  symbol: 'BTC-USD',
  candle_time: '2026-05-10T11:00:00Z',
  decision: 'BUY',
  confidence: 0.6,
  reasoning: 'RSI 28.1 below 30',
  indicators: { rsi: 28.1 },
  executed: false,
  reason: 'Automation is off (Settings > Trading > Auto trading)',
  ...over,
});

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown) => json(200, { success: true, data });
const failure = (status: number, message: string, fields?: Record<string, string>, data?: unknown) => json(status, { success: false, data, error: { code: 'invalid', message, fields } });

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}
type Handler = (c: Call) => Response | undefined;

/** A fetch mock answering the strategy API; extra answers what a test cares about first. */
function mockServer(extra: Handler = () => undefined, role: 'operator' | 'trader' = 'operator') {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const u = new URL(url, 'http://x');
    const c: Call = { method: init?.method ?? 'GET', path: u.pathname.replace(/^\/api/, ''), query: u.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(c);
    const r = extra(c);
    if (r) return r;
    if (c.method !== 'GET') return failure(500, `unexpected ${c.method} ${c.path}`);
    switch (c.path) {
      case '/auth/me':
        return ok({ id: 'u1', email: 'a@b.c', name: 'Ann', role, created_at: '', last_login: null });
      case '/strategy/list':
        return ok({ strategies: [summary(ai), summary(technical)] });
      case '/strategy/types':
        return ok({ types: [{ type: 'technical', description: 'Rules' }, { type: 'ai_driven', description: 'A model' }, { type: 'hybrid', description: 'Both' }] });
      case '/strategy/config/technical_strategy':
        return ok(technical);
      case '/strategy/config/ai_strategy':
        return ok(ai);
      case '/strategy/ai-decisions':
        return ok({ decisions: [] });
      case '/strategy/ai-performance/ai_strategy':
        return ok({ performance: { total_decisions: 0, executed_decisions: 0, execution_rate: 0, avg_confidence: 0, decision_distribution: {}, failed_decisions: 0 } });
      case '/strategy/performance':
        return ok({ performance: [] });
      case '/market-data/products':
        return ok(productsAnswer);
    }
    if (c.path.startsWith('/strategy/signals/')) return ok({ signals: [] });
    if (c.path.startsWith('/market-data/indicators/')) return ok({ readings: [{ timestamp: '', indicator_type: c.query.get('indicator_type'), value: c.query.get('indicator_type') === 'RSI' ? 25 : 1.5 }] });
    return failure(404, `no ${c.path}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderRoute(ui: ReactNode, path = '/') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return qc;
}

beforeEach(() => setToken('t'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');

/** The form is editable once the signed-in user is known to be an operator. */
async function editable() {
  await waitFor(() => expect((screen.getByRole('button', { name: 'Save Configuration' }) as HTMLButtonElement).disabled).toBe(false));
}

describe('Technical Analysis Strategy configuration', () => {
  it('refuses a short SMA not below the long SMA with the spec message, without calling the server', async () => {
    const calls = mockServer();
    renderRoute(<TechnicalStrategy />);
    const short = await screen.findByLabelText('Short SMA Period');
    await editable();
    await userEvent.clear(short);
    await userEvent.type(short, '25');
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(screen.getAllByText('Short SMA period must be less than long SMA period').length).toBeGreaterThan(0);
    expect(short.getAttribute('aria-invalid')).toBe('true');
    expect(puts(calls)).toHaveLength(0);
  });

  it.each([
    ['RSI Period', '60', 'RSI period must be between 2 and 50'],
    ['MACD Slow Period', '12', 'MACD fast period must be less than slow period'],
    ['Minimum Confidence', '1.5', 'Minimum confidence must be between 0 and 1'],
    ['Max Position Size', '0', 'Maximum position size must be between 0 and 1'],
  ])('%s %s: %s', async (label, value, message) => {
    const calls = mockServer();
    renderRoute(<TechnicalStrategy />);
    const input = await screen.findByLabelText(label);
    await editable();
    await userEvent.clear(input);
    await userEvent.type(input, value);
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(screen.getAllByText(message).length).toBeGreaterThan(0);
    expect(puts(calls)).toHaveLength(0);
  });

  it('saves the partial config (symbols trimmed, indicators nested) and says so', async () => {
    const calls = mockServer((c) => (c.method === 'PUT' ? ok({ ...technical, ...(c.body as object), indicators: { ...indicators, rsi_oversold: 40 } }) : undefined));
    renderRoute(<TechnicalStrategy />);
    const symbols = await screen.findByLabelText('Trading Symbols');
    await editable();
    await userEvent.clear(symbols);
    await userEvent.type(symbols, ' sol-usd, , BTC-USD ');
    const oversold = screen.getByLabelText('Oversold Level');
    await userEvent.clear(oversold);
    await userEvent.type(oversold, '40');
    await userEvent.selectOptions(screen.getByLabelText('Timeframe'), 'FIFTEEN_MINUTE');
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await screen.findByText('Technical analysis strategy configuration saved successfully');
    const put = puts(calls)[0]!;
    expect(put.path).toBe('/strategy/config/technical_strategy');
    expect(put.body).toMatchObject({ symbols: ['SOL-USD', 'BTC-USD'], timeframe: 'FIFTEEN_MINUTE', min_confidence: 0.6, indicators: { ...indicators, rsi_oversold: 40 } });
  });

  it("shows the server's field errors at the fields", async () => {
    mockServer((c) => (c.method === 'PUT' ? failure(400, 'Invalid configuration', { 'indicators.macd_fast': 'MACD fast period must be less than slow period', symbols: 'Unknown symbol: XRP-USD' }) : undefined));
    renderRoute(<TechnicalStrategy />);
    await screen.findByLabelText('Trading Symbols');
    await editable();
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await screen.findByText('Failed to save configuration: Invalid configuration');
    expect(screen.getByText('MACD fast period must be less than slow period')).toBeTruthy();
    expect(screen.getByText('Unknown symbol: XRP-USD')).toBeTruthy();
    expect(screen.getByLabelText('MACD Fast Period').getAttribute('aria-invalid')).toBe('true');
  });

  it('enables the strategy and reports failure with the spec messages', async () => {
    let fail = false;
    const calls = mockServer((c) => {
      if (c.method !== 'POST') return undefined;
      return fail ? failure(403, 'Operators only') : ok({ name: 'technical_strategy', enabled: true, strategy: { ...technical, enabled: true } });
    });
    renderRoute(<TechnicalStrategy />);
    await screen.findByLabelText('Trading Symbols');
    await editable();
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    await screen.findByText('Technical analysis strategy enabled');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/strategy/technical_strategy/enable')).toBe(true);
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    await screen.findByText('Failed to enable technical strategy: Operators only');
  });

  it('shows the current indicators with the RSI status and the strategy status', async () => {
    mockServer();
    renderRoute(<TechnicalStrategy />);
    const card = await screen.findByTestId('current-indicators');
    await within(card).findByText('Oversold');
    expect(within(card).getByText('25.00')).toBeTruthy();
    expect(screen.getAllByText('Inactive').length).toBeGreaterThan(0);
  });

  it('shows a trader the actions disabled, with a note', async () => {
    mockServer(undefined, 'trader');
    renderRoute(<TechnicalStrategy />);
    await screen.findByText('Only operators can save strategy configurations.');
    expect((screen.getByRole('button', { name: 'Save Configuration' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Enable' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Only operators can enable, disable or change strategies.')).toBeTruthy();
  });
});

describe('AI Strategy Configuration', () => {
  it('shows the model that answers', async () => {
    mockServer((c) => {
      if (c.path === '/strategy/config/ai_strategy') return ok({ ...ai, model_label: 'openai/gpt-4.1-nano', provider: 'replicate' });
      return undefined;
    });
    renderRoute(<AIStrategy />);
    expect((await screen.findByTestId('model-label')).textContent).toBe('openai/gpt-4.1-nano');
  });

  it('says the built-in analyst answers when it is the provider, not the configured model', async () => {
    mockServer((c) => {
      if (c.path === '/strategy/config/ai_strategy') return ok({ ...ai, model: 'gpt-4.1-nano', model_label: 'Built-in analyst (offline)', provider: 'builtin' });
      return undefined;
    });
    renderRoute(<AIStrategy />);
    const label = await screen.findByTestId('model-label');
    expect(label.textContent).toBe('Built-in analyst (offline)');
    expect(label.parentElement!.textContent).toMatch(/^Answers come from Built-in analyst \(offline\), the AI provider/);
    expect(screen.getByLabelText('Model (for a model provider; the built-in analyst uses none)')).toBeTruthy();
  });

  it('tests AI per symbol: decision, confidence colour and reasoning', async () => {
    mockServer((c) => {
      if (c.method !== 'POST') return undefined;
      const symbol = c.path.split('/').pop()!;
      return ok(ev({ id: symbol, symbol, strategy_name: 'ai_strategy', decision: symbol === 'BTC-USD' ? 'BUY' : 'HOLD', confidence: symbol === 'BTC-USD' ? 0.85 : 0.5, reasoning: `${symbol} looks fine`, provider: 'builtin', model: 'rules-v1' }));
    });
    renderRoute(<AIStrategy />);
    await screen.findByLabelText('Trading Symbols');
    await editable();
    await userEvent.click(screen.getByRole('button', { name: 'Test AI' }));
    await screen.findByText('AI analysis test completed successfully');
    const results = screen.getAllByTestId('test-ai-result');
    expect(results).toHaveLength(2);
    expect(within(results[0]!).getByText('BUY')).toBeTruthy();
    expect(within(results[0]!).getByText('85%').className).toContain('emerald');
    expect(within(results[1]!).getByText('50%').className).toContain('red');
    expect(within(results[0]!).getByText('BTC-USD looks fine')).toBeTruthy();
    expect(within(results[0]!).getByText('Built-in analyst (offline)')).toBeTruthy();
  });

  it('reports a provider failure (502) and an empty symbol list', async () => {
    mockServer((c) =>
      c.method === 'POST' ? failure(502, 'AI analysis failed: timeout', undefined, ev({ strategy_name: 'ai_strategy', decision: 'HOLD', confidence: 0, error: 'provider timed out' })) : undefined,
    );
    renderRoute(<AIStrategy />);
    await screen.findByLabelText('Trading Symbols');
    await editable();
    await userEvent.click(screen.getByRole('button', { name: 'Test AI' }));
    await screen.findByText('AI analysis test failed: AI analysis failed: timeout');
    expect(screen.getAllByText('provider timed out').length).toBeGreaterThan(0);
    await userEvent.clear(screen.getByLabelText('Trading Symbols'));
    await userEvent.type(screen.getByLabelText('Trading Symbols'), ' , ');
    await userEvent.click(screen.getByRole('button', { name: 'Test AI' }));
    await screen.findByText('Please add at least one symbol to test');
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(screen.getAllByText('Please add at least one trading symbol').length).toBeGreaterThan(0);
  });

  it('saves for real, disables, and shows the performance view', async () => {
    const calls = mockServer((c) => {
      if (c.path === '/strategy/ai-performance/ai_strategy')
        return ok({ performance: { total_decisions: 10, executed_decisions: 4, execution_rate: 0.4, avg_confidence: 0.82, decision_distribution: { BUY: 5, SELL: 1, HOLD: 4 }, failed_decisions: 0 } });
      if (c.method === 'PUT') return ok({ ...ai, ...(c.body as object) });
      if (c.method === 'POST') return ok({ name: 'ai_strategy', enabled: false, strategy: { ...ai, enabled: false } });
      return undefined;
    });
    renderRoute(<AIStrategy />);
    const perf = await screen.findByTestId('ai-performance');
    expect(within(perf).getByText('40.0%')).toBeTruthy();
    expect(within(perf).getByText('82.0%')).toBeTruthy();
    expect(within(perf).getByTestId('distribution-BUY').textContent).toBe('5 (50%)');
    await editable();
    const temp = screen.getByLabelText('Temperature');
    await userEvent.clear(temp);
    await userEvent.type(temp, '0.7');
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await screen.findByText('AI strategy configuration saved successfully');
    expect(puts(calls)[0]!.body).toMatchObject({ temperature: 0.7, max_tokens: 500, model: 'gpt-4.1-nano', symbols: ['BTC-USD', 'ETH-USD'] });
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await screen.findByText('AI strategy disabled');
  });

  it('says when there is no performance data', async () => {
    mockServer();
    renderRoute(<AIStrategy />);
    await screen.findByText('No performance data available');
    await screen.findByText('No AI decisions found');
  });
});

describe('AI Configuration: trade memory', () => {
  const save = () => userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
  const memorySwitch = () => screen.getByRole('switch', { name: 'Trade memory' });
  const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
  const echo = (c: Call) => (c.method === 'PUT' ? ok({ ...ai, ...(c.body as object) }) : undefined);

  it('is off by default, with its fields disabled, and a save leaves memory out', async () => {
    const calls = mockServer(echo);
    renderRoute(<AIStrategy />);
    await editable();
    expect(memorySwitch().getAttribute('aria-checked')).toBe('false');
    expect(field('Trades remembered').disabled).toBe(true);
    expect(field('Token budget').disabled).toBe(true);
    await save();
    await screen.findByText('AI strategy configuration saved successfully');
    expect(puts(calls)[0]!.body).not.toHaveProperty('memory');
  });

  it('turned on, sends memory.trades and memory.max_tokens with the rest of the form', async () => {
    const calls = mockServer(echo);
    renderRoute(<AIStrategy />);
    await editable();
    await userEvent.click(memorySwitch());
    expect(memorySwitch().getAttribute('aria-checked')).toBe('true');
    await userEvent.clear(field('Trades remembered'));
    await userEvent.type(field('Trades remembered'), '12');
    await userEvent.clear(field('Token budget'));
    await userEvent.type(field('Token budget'), '900');
    expect(screen.getByTestId('trade-memory').textContent).toContain('last 12 closed trades in the symbol, with the reasoning it gave, within about 900 tokens');
    await save();
    await screen.findByText('AI strategy configuration saved successfully');
    expect(puts(calls)[0]!.body).toMatchObject({ memory: { trades: 12, max_tokens: 900 }, model: 'gpt-4.1-nano', temperature: 0.3 });
  });

  it("shows the server's memory.trades and prompt_version messages under the group", async () => {
    mockServer((c) =>
      c.method === 'PUT'
        ? failure(400, 'Invalid configuration', { 'memory.trades': 'Memory trades must be between 0 and 50', prompt_version: 'Prompt v2 has no trade memory section: choose v3 (or no version) to use memory' })
        : undefined,
    );
    renderRoute(<AIStrategy />);
    await editable();
    await userEvent.click(memorySwitch());
    await save();
    const msg = await screen.findByText('Memory trades must be between 0 and 50');
    const trades = field('Trades remembered');
    expect(trades.getAttribute('aria-invalid')).toBe('true');
    expect(trades.getAttribute('aria-describedby')).toBe(msg.id);
    expect(within(screen.getByTestId('trade-memory')).getByRole('alert').textContent).toContain('Prompt v2 has no trade memory section');
    // Editing the group clears its messages.
    await userEvent.type(trades, '1');
    expect(screen.queryByText('Memory trades must be between 0 and 50')).toBeNull();
  });

  it('refuses 0 trades or a budget out of range while on, without calling the server', async () => {
    const calls = mockServer(echo);
    renderRoute(<AIStrategy />);
    await editable();
    await userEvent.click(memorySwitch());
    await userEvent.clear(field('Trades remembered'));
    await userEvent.type(field('Trades remembered'), '0');
    await userEvent.clear(field('Token budget'));
    await userEvent.type(field('Token budget'), '5000');
    await save();
    const under = (label: string) => document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent;
    expect(under('Trades remembered')).toBe('Memory trades must be between 1 and 50');
    expect(under('Token budget')).toBe('Memory token budget must be between 100 and 4000');
    expect(puts(calls)).toHaveLength(0);
  });

  it('starts from the saved memory, and turned off sends trades 0 with the saved budget', async () => {
    const calls = mockServer((c) => (c.path === '/strategy/config/ai_strategy' && c.method === 'GET' ? ok({ ...ai, memory: { trades: 8, max_tokens: 800 } }) : echo(c)));
    renderRoute(<AIStrategy />);
    await editable();
    await waitFor(() => expect(field('Trades remembered').value).toBe('8'));
    expect(memorySwitch().getAttribute('aria-checked')).toBe('true');
    expect(field('Token budget').value).toBe('800');
    await userEvent.click(memorySwitch());
    await save();
    await screen.findByText('AI strategy configuration saved successfully');
    expect(puts(calls)[0]!.body).toMatchObject({ memory: { trades: 0, max_tokens: 800 } });
  });
});

describe('Strategy Management', () => {
  it('shows cards with toggles, disables an active strategy and reloads the list', async () => {
    const calls = mockServer((c) => (c.method === 'POST' ? ok({ name: 'ai_strategy', enabled: false, strategy: ai }) : undefined));
    renderRoute(<StrategyManagement />);
    expect(screen.getByRole('heading', { name: 'Strategy Management' })).toBeTruthy();
    const cards = await screen.findAllByTestId('strategy-card');
    expect(cards).toHaveLength(2);
    const lists = () => calls.filter((c) => c.path === '/strategy/list').length;
    const before = lists();
    await userEvent.click(within(cards[0]!).getByRole('switch', { name: 'Disable ai_strategy' }));
    await screen.findByText('Strategy ai_strategy disabled');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/strategy/ai_strategy/disable')).toBe(true);
    await waitFor(() => expect(lists()).toBeGreaterThan(before));
    for (const t of ['Overview', 'AI Strategies', 'Technical Analysis', 'Performance', 'History']) expect(screen.getByRole('tab', { name: t })).toBeTruthy();
  });

  it('reports a failed toggle with the spec message', async () => {
    mockServer((c) => (c.method === 'POST' ? failure(500, 'boom') : undefined));
    renderRoute(<StrategyManagement />);
    const cards = await screen.findAllByTestId('strategy-card');
    await userEvent.click(within(cards[1]!).getByRole('switch'));
    await screen.findByText('Failed to enable strategy: boom');
  });

  it('creates a strategy from the dialog, showing a conflict from the server', async () => {
    let conflict = true;
    const calls = mockServer((c) => {
      if (c.method !== 'POST' || c.path !== '/strategy') return undefined;
      return conflict ? json(409, { success: false, error: { code: 'conflict', message: 'A strategy named fast already exists' } }) : json(201, { success: true, data: { strategy: { ...technical, name: 'fast' } } });
    });
    renderRoute(<StrategyManagement />);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Create Strategy' }) as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Create Strategy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Strategy' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Name'), 'fast');
    await userEvent.click(within(dialog).getByRole('radio', { name: /AI-driven/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await within(dialog).findByText('A strategy named fast already exists');
    conflict = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('Strategy fast created');
    expect(calls.filter((c) => c.method === 'POST').pop()!.body).toEqual({ name: 'fast', type: 'ai_driven' });
  });

  it('shows the performance metrics table', async () => {
    mockServer((c) =>
      c.path === '/strategy/performance'
        ? ok({ performance: [{ strategy_name: 'technical_strategy', total_trades: 4, winning_trades: 3, win_rate: 75, realized_pnl: '120.5', unrealized_pnl: '-20', total_pnl: '100.5', max_drawdown: '30', sharpe_ratio: 1.234 }] })
        : undefined,
    );
    renderRoute(<StrategyManagement />);
    await userEvent.click(screen.getByRole('tab', { name: 'Performance' }));
    const row = await screen.findByTestId('performance-row');
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual(['technical_strategy', '4', '3', '75.0%', '+$120.50', '-$20.00', '+$100.50', '$30.00', '1.23']);
    expect(row.querySelectorAll('td')[3]!.className).toContain('emerald');
  });
});

describe('Strategy Performance', () => {
  it('is real per-strategy performance, with the empty state', async () => {
    mockServer();
    renderRoute(<StrategyPerformance />);
    await screen.findByText('No performance data');
    expect(screen.queryByText(/coming soon/)).toBeNull();
  });
});

describe('Strategy History and Analytics', () => {
  const signals = [
    ev({ id: 's1', executed: true, reason: undefined, order_id: 'abcdef12-3456' }),
    ev({ id: 's2', timestamp: '2026-05-10T11:00:00Z', decision: 'HOLD', confidence: 0.5, reasoning: '=HYPERLINK("x")', reason: 'Hold: nothing to trade' }),
  ];

  it('lists AI decisions and signals with why each did not trade, filters and clears', async () => {
    const calls = mockServer((c) => {
      if (c.path === '/strategy/signals/technical_strategy') return ok({ signals: c.query.get('executed') === 'true' ? signals.slice(0, 1) : signals });
      if (c.path === '/strategy/ai-decisions') return ok({ decisions: [ev({ id: 'd1', strategy_name: 'ai_strategy', decision: 'SELL', confidence: 0.9, reasoning: 'Overbought', provider: 'builtin', reason: 'Confidence 0.90 is below the minimum 0.95' })] });
      return undefined;
    });
    renderRoute(<StrategyHistory />);
    await screen.findByText('Overbought');
    expect(screen.getByText('Not executed: Confidence 0.90 is below the minimum 0.95')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Strategy Signals' }));
    await screen.findByText('Executed (order #abcdef12)');
    expect(screen.getByText('Not executed: Hold: nothing to trade')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Execution status filter'), 'true');
    await waitFor(() => expect(screen.getAllByTestId('evaluation-row')).toHaveLength(1));
    expect(calls.some((c) => c.path === '/strategy/signals/technical_strategy' && c.query.get('executed') === 'true')).toBe(true);
    await userEvent.selectOptions(screen.getByLabelText('Symbol filter'), 'ETH-USD');
    expect(calls.some((c) => c.query.get('symbol') === 'ETH-USD')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect((screen.getByLabelText('Execution status filter') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Symbol filter') as HTMLSelectElement).value).toBe('');
    await userEvent.click(screen.getByRole('tab', { name: 'Analytics' }));
    const a = await screen.findByTestId('history-analytics');
    expect(within(a).getByText('50.0%')).toBeTruthy();
  });

  it('shows the load failure messages and the empty states', async () => {
    mockServer((c) => (c.path === '/strategy/ai-decisions' ? failure(500, 'db down') : c.path.startsWith('/strategy/signals/') ? failure(500, 'db down') : undefined));
    renderRoute(<StrategyHistory />);
    await screen.findByText('Failed to load AI decisions');
    await userEvent.click(screen.getByRole('tab', { name: 'Strategy Signals' }));
    await screen.findByText('Failed to load strategy signals');
    await userEvent.click(screen.getByRole('tab', { name: 'Analytics' }));
    expect(screen.getByText('No data available for analysis')).toBeTruthy();
  });

  it('exports through the shared CSV helper, formula cells neutralised', () => {
    const csv = toCSV(CSV_COLUMNS, evaluationRows(signals));
    expect(csv.split('\r\n')[0]).toBe('Time,Strategy,Symbol,Decision,Confidence,Executed,Reason,Order ID,Reasoning,Model,Error');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe('realtime signals', () => {
  it('writes a new signal into every cached listing it belongs to', () => {
    const qc = new QueryClient();
    qc.setQueryData(strategyKeys.signals('technical_strategy', { symbol: '', executed: '' }), [ev({ id: 'old' })]);
    qc.setQueryData(strategyKeys.signals('technical_strategy', { symbol: 'ETH-USD', executed: '' }), []);
    qc.setQueryData(strategyKeys.signals('technical_strategy', { symbol: '', executed: 'true' }), []);
    applySignal(qc, ev({ id: 'new' }));
    expect(qc.getQueryData<Evaluation[]>(strategyKeys.signals('technical_strategy', { symbol: '', executed: '' }))!.map((e) => e.id)).toEqual(['new', 'old']);
    expect(qc.getQueryData<Evaluation[]>(strategyKeys.signals('technical_strategy', { symbol: 'ETH-USD', executed: '' }))).toEqual([]);
    expect(qc.getQueryData<Evaluation[]>(strategyKeys.signals('technical_strategy', { symbol: '', executed: 'true' }))).toEqual([]);
    applySignal(qc, ev({ id: 'new' }));
    expect(qc.getQueryData<Evaluation[]>(strategyKeys.signals('technical_strategy', { symbol: '', executed: '' }))).toHaveLength(2);
  });
});

describe('rules', () => {
  it('RSI status: at or below oversold, at or above overbought, else neutral; unknown without a value', () => {
    expect([rsiStatus(30, 30, 70), rsiStatus(70, 30, 70), rsiStatus(50, 30, 70), rsiStatus(null, 30, 70)]).toEqual(['Oversold', 'Overbought', 'Neutral', 'Unknown']);
  });
  it('symbols: comma-separated, trimmed, blanks dropped', () => {
    expect(parseSymbols(' btc-usd, ,ETH-USD,, btc-usd ')).toEqual(['BTC-USD', 'ETH-USD']);
  });
});
