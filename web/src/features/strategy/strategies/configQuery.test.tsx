import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useStrategyConfig } from './api';

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

function wrapper({ children }: { children: ReactNode }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
}

describe('strategy configuration query', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks nothing before a strategy is chosen (no GET /api/strategy/config/ with an empty name)', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.resolve(ok({})));
    const { result } = renderHook(() => useStrategyConfig(''), { wrapper });
    await new Promise((r) => setTimeout(r, 20));
    expect(result.current.fetchStatus).toBe('idle');
    expect(fetchSpy.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/strategy/config'))).toEqual([]);
  });

  it('asks for a named strategy', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.resolve(ok({ name: 'technical_strategy' })));
    const { result } = renderHook(() => useStrategyConfig('technical_strategy'), { wrapper });
    await waitFor(() => expect(result.current.data?.name).toBe('technical_strategy'));
    expect(fetchSpy.mock.calls.some((c) => String(c[0]).endsWith('/strategy/config/technical_strategy'))).toBe(true);
  });
});
