import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDisplaySync } from './prefs';

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

function Synced() {
  useDisplaySync();
  return null;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.style.fontSize = '';
});

describe('display settings', () => {
  it('sets the font size of the whole app from the theme settings', async () => {
    for (const [size, px] of [
      ['large', '18px'],
      ['small', '14px'],
      ['medium', '16px'],
    ] as const) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) =>
          url.startsWith('/api/settings')
            ? ok({ settings: { ui: { theme: { fontSize: size } } } })
            : new Response(JSON.stringify({ success: false, error: { code: 'not_found', message: 'no' } }), { status: 404 }),
        ),
      );
      const view = render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <Synced />
        </QueryClientProvider>,
      );
      // rem sizes follow the root element's font size
      await waitFor(() => expect(document.documentElement.style.fontSize).toBe(px));
      view.unmount();
    }
  });
});
