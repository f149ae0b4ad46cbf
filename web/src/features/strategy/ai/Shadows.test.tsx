import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import AIStrategy from './routes/AIStrategy';
import { returnPercent, shadowParams, shadowsByEvaluation, validateShadows } from './shadowModel';
import type { StrategyConfig } from '../strategies/types';
import type { ShadowDecision, ShadowLeaderboard } from './types';

describe('shadow helpers', () => {
  it('shows a decimal fraction as a signed percent', () => {
    expect(returnPercent('0.02070')).toBe('+2.07%');
    expect(returnPercent('-0.0329512287974282')).toBe('-3.30%');
    expect(returnPercent('0')).toBe('0.00%');
    expect(returnPercent('-0.00001')).toBe('0.00%');
  });
  it('saves trimmed entries, builtin without a model, a base URL only for openai', () => {
    expect(shadowParams([{ provider: 'builtin', model: 'x' }, { provider: 'openai', model: ' m ', base_url: ' ' }, { provider: 'replicate', model: 'llama-2-70b', base_url: 'http://x' }])).toEqual([
      { provider: 'builtin', model: '' },
      { provider: 'openai', model: 'm' },
      { provider: 'replicate', model: 'llama-2-70b' },
    ]);
    expect(validateShadows([{ provider: 'openai', model: '' }])).toEqual({ 'shadow_models.0.model': 'Model is required' });
  });
});

const ai: StrategyConfig = {
  name: 'ai_strategy', type: 'ai_driven', enabled: true, min_confidence: 0.7, max_position_size: 0.1, risk_multiplier: 1, symbols: ['BTC-USD'], timeframe: 'ONE_HOUR',
  model: 'gpt-4.1-nano', max_tokens: 500, temperature: 0.3, context_length: 50, parameters: {}, version: 2, shadow_models: [{ provider: 'builtin', model: '' }],
};
const row = (over: Partial<ShadowDecision>): ShadowDecision => ({
  id: 'd1:0', evaluation_id: 'd1', timestamp: '2026-05-10T12:00:00Z', strategy_name: 'ai_strategy', symbol: 'BTC-USD', candle_time: '2026-05-10T11:00:00Z', price: '47000',
  role: 'live', provider: 'openai', model: 'fake-model', decision: 'BUY', confidence: 0.8, reasoning: 'up', input_tokens: 10, output_tokens: 2, cost: null, latency_ms: 5, ...over,
});
const board: ShadowLeaderboard = {
  strategy: 'ai_strategy', since: '2026-04-10T12:00:00Z', from: '2026-05-10T11:00:00Z', to: '2026-05-10T11:00:00Z', evaluations: 1, symbols: ['BTC-USD'], fee: '0.006', truncated: false,
  models: [
    { role: 'live', provider: 'openai', model: 'fake-model', decisions: 1, buys: 1, sells: 0, holds: 0, failed: 0, round_trips: 1, wins: 1, hit_rate: 100, realised_return: '0.0207', open_positions: 0, input_tokens: 10, output_tokens: 2, cost: '0.0042', known_cost: '0.0042', unpriced_decisions: 0, avg_latency_ms: 5 },
    { role: 'shadow', provider: 'builtin', model: 'Built-in analyst (offline)', decisions: 1, buys: 0, sells: 1, holds: 0, failed: 0, round_trips: 1, wins: 0, hit_rate: 0, realised_return: '-0.033', open_positions: 0, input_tokens: 0, output_tokens: 0, cost: '0', known_cost: '0', unpriced_decisions: 0, avg_latency_ms: 0 },
    { role: 'shadow', provider: 'replicate', model: 'llama-2-70b', decisions: 0, buys: 0, sells: 0, holds: 0, failed: 1, round_trips: 0, wins: 0, hit_rate: null, realised_return: '0', open_positions: 0, input_tokens: 0, output_tokens: 0, cost: null, known_cost: '0', unpriced_decisions: 1, avg_latency_ms: 0 },
  ],
  recent: [
    {
      evaluation_id: 'd1', symbol: 'BTC-USD', candle_time: '2026-05-10T11:00:00Z', price: '47000',
      decisions: [row({}), row({ id: 'd1:1', role: 'shadow', provider: 'builtin', model: 'Built-in analyst (offline)', decision: 'SELL', confidence: 0.65 }), row({ id: 'd1:2', role: 'shadow', provider: 'replicate', model: 'llama-2-70b', decision: '', confidence: 0, error: 'timed out' })],
    },
  ],
};

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const ok = (data: unknown) => json(200, { success: true, data });

function mockServer() {
  const puts: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '');
      if (init?.method === 'PUT' && path === '/strategy/config/ai_strategy') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push(body);
        const shadows = body.shadow_models as { provider: string }[];
        if (shadows.some((s) => s.provider === 'openai')) {
          return json(400, { success: false, error: { code: 'invalid', message: 'A shadow model must differ from the live model (openai/gpt-4.1-nano)', fields: { 'shadow_models.1.model': 'A shadow model must differ from the live model (openai/gpt-4.1-nano)' } } });
        }
        return ok({ ...ai, ...body });
      }
      switch (path) {
        case '/auth/me':
          return ok({ id: 'u1', email: 'op@example.com', name: 'Op', role: 'operator', created_at: '', last_login: null });
        case '/strategy/list':
          return ok({ strategies: [{ name: 'ai_strategy', type: 'ai_driven', is_active: true, total_signals: 0, avg_confidence: 0, last_signal_time: null, config: ai }] });
        case '/strategy/config/ai_strategy':
          return ok(ai);
        case '/strategy/shadows/ai_strategy':
          return ok(board);
        case '/strategy/ai-performance/ai_strategy':
          return ok({ performance: { total_decisions: 1, executed_decisions: 1, execution_rate: 1, avg_confidence: 0.8, decision_distribution: {}, failed_decisions: 0 } });
        case '/strategy/ai-decisions':
          return ok({ decisions: [{ id: 'd1', timestamp: '2026-05-10T12:00:00Z', strategy_name: 'ai_strategy', symbol: 'BTC-USD', candle_time: '2026-05-10T11:00:00Z', decision: 'BUY', confidence: 0.8, reasoning: 'up', indicators: {}, executed: true, provider: 'openai', model: 'fake-model', strategy_version: 2 }] });
      }
      return json(404, { success: false, error: { code: 'not_found', message: `no ${path}` } });
    }),
  );
  return puts;
}

beforeEach(() => setToken('t'));
afterEach(() => vi.unstubAllGlobals());

describe('AI Configuration: shadow models', () => {
  it('shows each shadow decision beside the live one, and the leaderboard with what it is computed from', async () => {
    mockServer();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <AIStrategy />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const answers = await screen.findAllByTestId('shadow-answer');
    expect(answers.map((a) => a.textContent)).toEqual(['Shadow Built-in analyst: SELL 65%', 'Shadow replicate/llama-2-70b: failed (timed out)']);
    const lb = await screen.findByTestId('shadow-leaderboard');
    expect(lb.textContent).toContain('1 evaluation on BTC-USD');
    expect(lb.textContent).toContain('0.60% fee per fill');
    const rows = within(lb).getAllByTestId('leaderboard-row').map((r) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent));
    expect(rows[0]).toEqual(['openai/fake-modellive', '1', '1 / 0', '0', '+2.07%', '100%', '1', '$0.0042']);
    expect(rows[1]).toEqual(['Built-in analystshadow', '1', '0 / 1', '0', '-3.30%', '0%', '1', '$0']);
    expect(rows[2]).toEqual(['replicate/llama-2-70bshadow', '0', '0 / 0', '1', '0.00%', '—', '0', 'unknown (1 unpriced; priced part $0)']);
  });

  it('adds a shadow model, saves the list, and shows the server\'s field error on its row', async () => {
    const puts = mockServer();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <AIStrategy />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const group = await screen.findByTestId('shadow-models');
    expect(within(group).getAllByTestId('shadow-row')).toHaveLength(1);
    await user.click(within(group).getByRole('button', { name: 'Add shadow model' }));
    await user.type(within(group).getByLabelText('Shadow 2 model'), 'gpt-4.1-nano');
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.shadow_models).toEqual([{ provider: 'builtin', model: '' }, { provider: 'openai', model: 'gpt-4.1-nano' }]);
    expect(await within(group).findByText('A shadow model must differ from the live model (openai/gpt-4.1-nano)')).toBeTruthy();
    // A fourth cannot be added.
    await user.click(within(group).getByRole('button', { name: 'Add shadow model' }));
    expect((within(group).getByRole('button', { name: 'Add shadow model' }) as HTMLButtonElement).disabled).toBe(true);
    expect(shadowsByEvaluation(board).get('d1')).toHaveLength(2);
  });
});
