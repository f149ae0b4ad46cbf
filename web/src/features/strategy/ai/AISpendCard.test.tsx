import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { AISpendCard } from './components/AISpendCard';
import type { AISpend } from './types';

const totals = (over: Partial<AISpend['total']> = {}): AISpend['total'] => ({ decisions: 2, input_tokens: 1200, output_tokens: 40, cost: '0.00204', known_cost: '0.00204', unpriced_decisions: 0, shadow_decisions: 0, shadow_cost: '0', ...over });
const spend: AISpend = {
  from: '2026-11-01T00:00:00Z',
  to: '2026-11-25T04:00:00Z',
  month_start: '2026-11-01T00:00:00Z',
  total: totals({ decisions: 3, input_tokens: 1500, cost: null, unpriced_decisions: 1 }),
  days: [{ day: '2026-11-24', ...totals() }],
  strategies: [{ strategy: 'ai_strategy', ...totals({ shadow_decisions: 1, shadow_cost: '0.001' }) }],
  providers: [{ provider: 'openai', month: totals(), budget: '0.002', paused: true }],
  unpriced_models: ['openai other-model'],
};

afterEach(() => vi.unstubAllGlobals());

it('shows spend per day and per strategy, an unknown cost as unknown, and a paused budget', async () => {
  setToken('t');
  const fetchMock = vi.fn(async (url: string) => {
    expect(new URL(url, 'http://x').pathname).toBe('/api/ai/spend');
    return new Response(JSON.stringify({ success: true, data: spend }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AISpendCard />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  const card = await screen.findByTestId('ai-spend');
  expect(within(card).getByRole('status').textContent).toBe('Paused: budget reached');
  expect(card.textContent).toContain('of $0.002 budget');
  expect(card.textContent).toContain('No price for: openai other-model');
  const [perDay, perStrategy] = within(card).getAllByRole('table');
  if (!perDay || !perStrategy) throw new Error('two tables expected');
  expect(perDay.textContent).toContain('2026-11-24');
  expect(perDay.textContent).toContain('1,200');
  expect(perDay.textContent).toContain('$0.00204');
  // The total has an unpriced decision: unknown, never $0.
  expect(perDay.textContent).toContain('unknown (1 unpriced; priced part $0.00204)');
  expect(perStrategy.textContent).toContain('ai_strategy');
  // Shadow models' calls are in the figures, and labelled.
  expect(perStrategy.textContent).toContain('$0.00204 (1 shadow call: $0.001)');
  // Prices and budgets are edited in Settings, where the link lands on them.
  expect(within(card).getByRole('link', { name: 'Set model prices and monthly budgets in Settings' }).getAttribute('href')).toBe('/settings#ai-spend-settings');
});
