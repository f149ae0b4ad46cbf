import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import type { PromptHistory } from './promptApi';
import { collapse, diffStats, lineDiff, templateParam } from './promptModel';
import AIStrategy from './routes/AIStrategy';
import type { StrategyConfig } from '../strategies/types';

describe('lineDiff', () => {
  it('keeps common lines and marks the rest deleted or added, with line numbers', () => {
    const d = lineDiff('a\nb\nc\n', 'a\nB\nc\nd');
    expect(d.map((l) => `${l.kind}:${l.text}:${l.from ?? ''}:${l.to ?? ''}`)).toEqual(['same:a:1:1', 'del:b:2:', 'add:B::2', 'same:c:3:3', 'add:d::4']);
    expect(diffStats(d)).toEqual({ added: 2, deleted: 1 });
  });

  it('finds nothing between equal texts, and everything against an empty one', () => {
    expect(diffStats(lineDiff('x\ny', 'x\ny\n'))).toEqual({ added: 0, deleted: 0 });
    expect(lineDiff('', 'x\ny').map((l) => l.kind)).toEqual(['add', 'add']);
    expect(lineDiff('x\r\ny', '').map((l) => l.kind)).toEqual(['del', 'del']);
  });

  it('keeps a moved line as one deletion and one addition', () => {
    const d = lineDiff('a\nb\nc', 'b\nc\na');
    expect(diffStats(d)).toEqual({ added: 1, deleted: 1 });
  });

  it('folds unchanged lines far from a change into gaps', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const b = a.replace('l10', 'changed');
    const c = collapse(lineDiff(a, b), 2);
    expect(c.map((x) => (x.kind === 'gap' ? `gap${x.count}` : x.kind))).toEqual(['gap8', 'same', 'same', 'del', 'add', 'same', 'same', 'gap7']);
  });
});

describe('templateParam', () => {
  it('saves the shipped text or a blank one as the default', () => {
    expect(templateParam('shipped', 'shipped')).toBe('');
    expect(templateParam('  \n', 'shipped')).toBe('');
    expect(templateParam('mine', 'shipped')).toBe('mine');
  });
});

const ai: StrategyConfig = { name: 'ai_strategy', type: 'ai_driven', enabled: true, min_confidence: 0.7, max_position_size: 0.1, risk_multiplier: 1, symbols: ['BTC-USD', 'ETH-USD'], timeframe: 'ONE_HOUR', model: 'gpt-4.1-nano', max_tokens: 500, temperature: 0.3, context_length: 50, parameters: {}, version: 2 };
const shipped = '{{define "system"}}You are cautious.{{end}}Decide for {{.Symbol}}.\nAnswer JSON.';
const custom = '{{define "system"}}You are terse.{{end}}Decide for {{.Symbol}} at {{.Price}}.\nAnswer JSON.';
const history: PromptHistory = {
  strategy: 'ai_strategy',
  active_version: 2,
  count: 2,
  default: { template_version: 'v2', template: shipped },
  fields: [{ name: '.Symbol', description: 'The product' }],
  max_template_bytes: 16384,
  versions: [
    { version: 2, parent: 1, note: 'terse', created_by: 'op@example.com', created_at: '2026-05-10T12:00:00Z', active: true, template_version: 'custom:abcdef123456', custom: true, template: custom, changed: true },
    { version: 1, note: 'Default configuration', created_by: '', created_at: '2026-05-01T12:00:00Z', active: false, template_version: 'v2', custom: false, changed: false },
  ],
};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown) => json(200, { success: true, data });

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

/** The AI screen's API; POST /strategy/prompt answers an error on line 2 for a template naming .Nope. */
function mockServer(over: (c: Call) => Response | undefined = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://x');
      const c: Call = { method: init?.method ?? 'GET', path: u.pathname.replace(/^\/api/, ''), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      const r = over(c);
      if (r) return r;
      if (c.method === 'POST' && c.path === '/strategy/prompt/ai_strategy') {
        const t = String(c.body?.template);
        if (t.includes('.Nope')) return ok({ strategy: 'ai_strategy', symbol: 'BTC-USD', valid: false, error: { line: 2, column: 3, message: '<.Nope>: can\'t evaluate field Nope in the prompt data' } });
        return ok({ strategy: 'ai_strategy', symbol: c.body?.symbol, valid: true, template_version: 'custom:0123', system: 'You are terse.', prompt: `Rendered: ${t.length} bytes`, prompt_hash: 'h' });
      }
      if (c.method === 'POST' && c.path === '/strategy/versions/ai_strategy') {
        return json(201, { success: true, data: { version: { strategy: 'ai_strategy', version: 3, params: {}, note: c.body?.note, created_by: 'op@example.com', created_at: '', active: true }, config: { ...ai, version: 3 } } });
      }
      switch (c.path) {
        case '/auth/me':
          return ok({ id: 'u1', email: 'op@example.com', name: 'Op', role: 'operator', created_at: '', last_login: null });
        case '/strategy/list':
          return ok({ strategies: [{ name: 'ai_strategy', type: 'ai_driven', is_active: true, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: ai }] });
        case '/strategy/config/ai_strategy':
          return ok(ai);
        case '/strategy/prompt-versions/ai_strategy':
          return ok(history);
        case '/strategy/ai-decisions':
          return ok({ decisions: [{ id: 'd1', timestamp: '2026-05-10T12:00:00Z', strategy_name: 'ai_strategy', symbol: 'BTC-USD', candle_time: '2026-05-10T11:00:00Z', decision: 'HOLD', confidence: 0.5, reasoning: 'flat', indicators: {}, executed: false, provider: 'openai', model: 'm', strategy_version: 2, template_version: 'custom:abcdef123456' }] });
        case '/strategy/ai-performance/ai_strategy':
          return ok({ performance: { total_decisions: 0, executed_decisions: 0, execution_rate: 0, avg_confidence: 0, decision_distribution: {}, failed_decisions: 0 } });
        case '/market-data/coverage':
          return ok({ coverage: [] });
      }
      return json(404, { success: false, error: { code: 'not_found', message: `no ${c.path}` } });
    }),
  );
  return calls;
}

function renderScreen() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <AIStrategy />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('t'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AI Configuration: the prompt template', () => {
  it('starts from the active template, checks it as it is typed, shows the error line and the preview, and saves a new version', async () => {
    const calls = mockServer();
    renderScreen();
    const area = (await screen.findByLabelText('Prompt template')) as HTMLTextAreaElement;
    expect(area.value).toBe(custom);
    expect((await screen.findByTestId('prompt-preview')).textContent).toBe(`Rendered: ${custom.length} bytes`);
    expect(screen.getByTestId('prompt-preview-system').textContent).toBe('You are terse.');
    expect((screen.getByRole('button', { name: 'Save as new version' }) as HTMLButtonElement).disabled).toBe(true); // unchanged
    // Each decision names the prompt it used.
    expect((await screen.findByTitle('The prompt template the decision rendered')).textContent).toBe(' · prompt custom:abcdef123456');

    fireEvent.change(area, { target: { value: '{{define "system"}}s{{end}}\n  {{.Nope}}' } });
    const err = await screen.findByTestId('prompt-error', {}, { timeout: 3000 });
    expect(err.textContent).toContain('Line 2, column 3');
    expect(err.textContent).toContain("can't evaluate field Nope");
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Save as new version' }) as HTMLButtonElement).disabled).toBe(true);
    // The line in the message moves the caret to it.
    await userEvent.click(within(err).getByRole('button', { name: /Line 2/ }));
    expect(area.selectionStart).toBe('{{define "system"}}s{{end}}\n'.length);

    const good = '{{define "system"}}s{{end}}\nBuy {{.Symbol}}?';
    fireEvent.change(area, { target: { value: good } });
    await waitFor(() => expect(screen.getByTestId('prompt-preview').textContent).toBe(`Rendered: ${good.length} bytes`), { timeout: 3000 });
    expect(screen.queryByTestId('prompt-error')).toBeNull();
    await userEvent.type(screen.getByLabelText('Note'), 'asks a question');
    const save = screen.getByRole('button', { name: 'Save as new version' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    await userEvent.click(save);
    await screen.findByText('Saved version 3: ai_strategy now asks with this prompt');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/strategy/versions/ai_strategy');
    expect(post?.body).toEqual({ params: { prompt_template: good, prompt_version: '' }, note: 'asks a question', parent: 2 });
  });

  it('renders the preview again once a configuration save (trade memory on) makes a new version', async () => {
    let saved = { ...ai };
    const calls = mockServer((c) => {
      if (c.method === 'PUT' && c.path === '/strategy/config/ai_strategy') {
        saved = { ...saved, ...(c.body as object), version: 3 };
        return ok(saved);
      }
      if (c.path === '/strategy/prompt-versions/ai_strategy') return ok({ ...history, active_version: saved.version });
      if (c.method === 'POST' && c.path === '/strategy/prompt/ai_strategy') {
        const memory = saved.memory?.trades ? `\nYour last ${saved.memory.trades} closed trades` : '';
        return ok({ strategy: 'ai_strategy', symbol: c.body?.symbol, valid: true, template_version: 'custom:0123', system: 's', prompt: `Rendered${memory}`, prompt_hash: 'h' });
      }
      return undefined;
    });
    renderScreen();
    expect((await screen.findByTestId('prompt-preview')).textContent).toBe('Rendered');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save Configuration' }) as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(screen.getByRole('switch', { name: 'Trade memory' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() => expect(screen.getByTestId('prompt-preview').textContent).toBe('Rendered\nYour last 5 closed trades'), { timeout: 3000 });
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ memory: { trades: 5, max_tokens: 600 } });
  });

  it('saves the shipped text as the default, not as a copy', async () => {
    const calls = mockServer();
    renderScreen();
    await screen.findByLabelText('Prompt template');
    await userEvent.click(screen.getByRole('button', { name: 'Start from the shipped template' }));
    expect((screen.getByLabelText('Prompt template') as HTMLTextAreaElement).value).toBe(shipped);
    const save = screen.getByRole('button', { name: 'Save as new version' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false), { timeout: 3000 });
    await userEvent.click(save);
    await waitFor(() => expect(calls.some((c) => c.path === '/strategy/versions/ai_strategy')).toBe(true));
    expect(calls.find((c) => c.path === '/strategy/versions/ai_strategy')?.body?.params).toEqual({ prompt_template: '', prompt_version: '' });
  });

  it('diffs any two versions line by line and loads an older one into the editor', async () => {
    mockServer();
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Changes from v1 to v2' });
    expect(within(table).getAllByTestId('diff-del').map((r) => r.textContent)).toEqual(['1-{{define "system"}}You are cautious.{{end}}Decide for {{.Symbol}}.']);
    expect(within(table).getAllByTestId('diff-add').map((r) => r.textContent)).toEqual(['1+{{define "system"}}You are terse.{{end}}Decide for {{.Symbol}} at {{.Price}}.']);
    expect(screen.getByTestId('prompt-diff-summary').textContent).toBe('1 line added, 1 deleted from v1 to v2.');
    await userEvent.selectOptions(screen.getByLabelText('Compare prompts from'), '2');
    expect(screen.getByTestId('prompt-diff-summary').textContent).toBe('v2 and v2 use the same template.');

    await userEvent.click(screen.getByRole('button', { name: 'Load version 1 into the editor' }));
    expect((screen.getByLabelText('Prompt template') as HTMLTextAreaElement).value).toBe(shipped);
  });

  it('backtests a chosen version through the backtest API and links to the run', async () => {
    mockServer();
    const base = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      if (String(url).endsWith('/api/backtests') && init?.method === 'POST') return json(202, { success: true, data: { id: 'run-1', status: 'queued' } });
      return base(url, init);
    });
    renderScreen();
    await userEvent.selectOptions(await screen.findByLabelText('Strategy version to backtest'), '1');
    fireEvent.change(screen.getByLabelText('Backtest start date'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('Backtest end date'), { target: { value: '2026-02-01' } });
    await userEvent.click(screen.getByRole('button', { name: 'Backtest v1' }));
    const link = await screen.findByRole('link', { name: 'Open the run' });
    expect(link.getAttribute('href')).toBe('/strategy/backtest?run=run-1');
    const ask = vi.mocked(fetch).mock.calls.find(([u, i]) => String(u).endsWith('/api/backtests') && i?.method === 'POST');
    expect(JSON.parse(String(ask?.[1]?.body))).toMatchObject({ strategy_name: 'ai_strategy', symbol: 'BTC-USD', start_date: '2026-01-01', end_date: '2026-02-01', ai_mode: 'recorded', strategy_version: 1 });
  });
});
