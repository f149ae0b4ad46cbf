import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertOverlay, canResolve, visibleAlerts, type SystemAlert } from './AlertOverlay';

const ALERTS: SystemAlert[] = [
  { id: 1, severity: 'critical', title: 'Database down', message: 'The store is not answering', count: 1 },
  { id: 2, severity: 'high', title: 'Feed stale', message: 'No ticks for 60 s', count: 3 },
  { id: 3, severity: 'medium', title: 'Slow requests', message: 'p95 above 2 s', count: 1 },
  { id: 4, severity: 'low', title: 'Disk notice', message: 'Disk 70% full', count: 1 },
];

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function renderOverlay() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AlertOverlay />
    </QueryClientProvider>,
  );
}

function alertBox(title: string): HTMLElement {
  const el = screen.getByText(title).closest('[role="alert"]');
  if (!el) throw new Error(`no alert box for ${title}`);
  return el as HTMLElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('AlertOverlay', () => {
  it('polls open alerts and offers Resolve only for critical and high', async () => {
    const fetchMock = vi.fn(async () => json(200, { success: true, data: { alerts: ALERTS, count: ALERTS.length } }));
    vi.stubGlobal('fetch', fetchMock);
    renderOverlay();
    await screen.findByText('Database down');
    expect(fetchMock).toHaveBeenCalledWith('/api/system/alerts?resolved=false&limit=10', expect.anything());
    expect(screen.getByText('The store is not answering')).toBeTruthy();
    expect(within(alertBox('Database down')).getByRole('button', { name: 'Resolve' })).toBeTruthy();
    expect(within(alertBox('Feed stale')).getByRole('button', { name: 'Resolve' })).toBeTruthy();
    expect(within(alertBox('Slow requests')).queryByRole('button', { name: 'Resolve' })).toBeNull();
    expect(within(alertBox('Disk notice')).queryByRole('button', { name: 'Resolve' })).toBeNull();
    for (const a of ALERTS) {
      const box = alertBox(a.title);
      expect(within(box).getByRole('button', { name: 'Dismiss' })).toBeTruthy();
      expect(within(box).getByRole('button', { name: 'Close alert' })).toBeTruthy();
    }
  });

  it('keeps the alert when resolving fails and logs the error', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url.endsWith('/resolve')) return json(500, { success: false, error: { code: 'internal', message: 'boom' } });
      return json(200, { success: true, data: { alerts: ALERTS.slice(0, 1), count: 1 } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderOverlay();
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to resolve alert', expect.anything()));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/system/alerts/1/resolve')).toBe(true);
    expect(screen.getByText('Database down')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resolve' })).toBeTruthy();
  });

  it('refetches after a successful resolve', async () => {
    let resolved = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/resolve')) {
          resolved = true;
          return json(200, { success: true, data: { ...ALERTS[0], resolved: true } });
        }
        return json(200, { success: true, data: { alerts: resolved ? [] : ALERTS.slice(0, 1), count: resolved ? 0 : 1 } });
      }),
    );
    renderOverlay();
    await userEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(screen.queryByText('Database down')).toBeNull());
  });

  it('hides an alert locally on Dismiss and on the close control', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { success: true, data: { alerts: ALERTS.slice(2), count: 2 } })));
    renderOverlay();
    await screen.findByText('Slow requests');
    await userEvent.click(within(alertBox('Slow requests')).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Slow requests')).toBeNull();
    await userEvent.click(within(alertBox('Disk notice')).getByRole('button', { name: 'Close alert' }));
    expect(screen.queryByText('Disk notice')).toBeNull();
  });
});

describe('alert helpers', () => {
  it('resolves only critical and high; filters dismissed alerts', () => {
    expect(ALERTS.map((a) => canResolve(a.severity))).toEqual([true, true, false, false]);
    expect(visibleAlerts(ALERTS, new Set(['2:3'])).map((a) => a.id)).toEqual([1, 3, 4]);
    // The same alert firing again (count grows) shows again.
    expect(visibleAlerts([{ ...ALERTS[1]!, count: 4 }], new Set(['2:3'])).length).toBe(1);
    expect(visibleAlerts(null, new Set())).toEqual([]);
  });
});
