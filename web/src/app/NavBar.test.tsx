import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { reportAnswer, reportLost } from '@/lib/connection';
import { setToken } from '@/lib/token';
import { NavBar } from './NavBar';

function renderAt(path: string, health = 'healthy') {
  // A fresh response per request: the header reads both the health and the status.
  vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => new Response(JSON.stringify({ success: true, data: { status: health } }), { status: 200 })));
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <NavBar />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('NavBar', () => {
  it('shows every top-level item and highlights Dashboard on /', async () => {
    renderAt('/');
    for (const label of ['Dashboard', 'Trading', 'Strategy', 'Analytics', 'Settings']) {
      expect(screen.getByRole('link', { name: label })).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Dashboard' }).className).toContain('bg-blue-600');
    expect(screen.getByRole('link', { name: 'Trading' }).className).not.toContain('bg-blue-600');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect(await screen.findByText('System Online')).toBeTruthy();
  });

  it("says 'System Degraded' while the server answers but its database refuses writes", async () => {
    renderAt('/', 'degraded');
    expect(await screen.findByText('System Degraded')).toBeTruthy();
    expect(screen.queryByText('System Offline')).toBeNull();
  });

  it('highlights the parent of a sub-route and opens its dropdown', async () => {
    renderAt('/trading/orders');
    expect(screen.getByRole('link', { name: 'Trading' }).className).toContain('bg-blue-600');
    await userEvent.click(screen.getByRole('button', { name: 'Trading menu' }));
    for (const label of ['Trading Center', 'New Trade', 'Positions', 'Portfolio', 'Orders', 'Trade History']) {
      expect(screen.getByRole('link', { name: label })).toBeTruthy();
    }
  });

  it('toggles the mobile menu', async () => {
    renderAt('/analytics');
    expect(screen.queryByTestId('mobile-menu')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Toggle menu' }));
    expect(screen.getByTestId('mobile-menu').textContent).toContain('Backtesting');
  });

  it.each([
    ['operator', true],
    ['trader', false],
  ])('shows Users to an %s: %s', async (role, shown) => {
    setToken('t');
    const me = { id: 'u', email: 'u@example.com', name: 'Uma', role, created_at: '2026-05-01T00:00:00Z', last_login: null };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => new Response(JSON.stringify({ success: true, data: url.endsWith('/auth/me') ? me : { status: 'healthy' } }), { status: 200 })),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <NavBar />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('current-user')).getAttribute('href')).toBe('/account');
    expect(screen.queryByRole('link', { name: 'Users' }) !== null).toBe(shown);
  });
});

describe('NavBar venue', () => {
  it('shows where orders go and on which prices', async () => {
    const body = { success: true, data: { status: 'healthy', market_data: { status: 'healthy', last_tick_age_seconds: 1, source: 'Coinbase live market data', venue: 'Paper · live Coinbase prices' } } };
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => new Response(JSON.stringify(body), { status: 200 })));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/']}>
          <NavBar />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findAllByTestId('venue-badge'))[0]!.textContent).toBe('Paper · live Coinbase prices');
    // The server stops answering: the badge says it is the last known venue, and recovers with it.
    act(() => reportLost());
    expect(screen.getAllByTestId('venue-badge')[0]!.textContent).toBe('Paper · live Coinbase prices (last known)');
    act(() => reportAnswer());
    expect(screen.getAllByTestId('venue-badge')[0]!.textContent).toBe('Paper · live Coinbase prices');
  });
});
