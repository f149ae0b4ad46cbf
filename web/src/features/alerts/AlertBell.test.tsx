import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportAnswer, reportLost } from '@/lib/connection';
import { AlertBell } from './AlertBell';
import { activeAlerts, type SystemAlert } from './api';

const base = { key: 'k', count: 1, created_at: '2026-05-01T12:00:00Z', last_seen: '2026-05-01T12:00:00Z', resolved: false, resolved_at: null, dismissed: false };
const STOP: SystemAlert = { ...base, id: 1, severity: 'critical', title: 'Emergency stop active', message: 'Trading halted by op@example.com', component: 'trading' };
const STALE: SystemAlert = { ...base, id: 2, severity: 'medium', title: 'Backup failed', message: 'Disk full', component: 'backup', count: 3 };
const OLD: SystemAlert = { ...base, id: 3, severity: 'low', title: 'Slow requests', message: 'p95 above 2 s', component: 'http', dismissed: true };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A server holding alerts; dismiss marks one dismissed for "this user", resolve removes it. */
function serve(alerts: SystemAlert[]) {
  let list = alerts.map((a) => ({ ...a }));
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const m = /\/system\/alerts\/(\d+)\/(dismiss|resolve)$/.exec(url);
    if (m && init?.method === 'POST') {
      const id = Number(m[1]);
      if (m[2] === 'dismiss') list = list.map((a) => (a.id === id ? { ...a, dismissed: true } : a));
      else list = list.filter((a) => a.id !== id);
      return json(200, { success: true, data: list.find((a) => a.id === id) ?? alerts.find((a) => a.id === id) });
    }
    return json(200, { success: true, data: { alerts: list, count: list.length } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AlertBell />
    </QueryClientProvider>,
  );
}

const count = () => screen.queryByTestId('alert-count')?.textContent ?? '0';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  reportAnswer();
});

describe('AlertBell', () => {
  it('counts open alerts the user has not dismissed', async () => {
    const fetchMock = serve([STOP, STALE, OLD]);
    renderBell();
    await waitFor(() => expect(count()).toBe('2'));
    expect(fetchMock).toHaveBeenCalledWith('/api/system/alerts?resolved=false&limit=100', expect.anything());
    expect(screen.getByRole('button', { name: 'Alerts: 2 active' })).toBeTruthy();
    // A critical alert among them makes the badge red.
    expect(screen.getByTestId('alert-count').className).toContain('bg-red-600');
  });

  it('opens a drawer listing each alert with severity, message, component and time', async () => {
    serve([STOP, STALE, OLD]);
    renderBell();
    await waitFor(() => expect(count()).toBe('2'));
    await userEvent.click(screen.getByTestId('alert-bell'));
    const drawer = screen.getByRole('dialog', { name: 'System alerts' });
    const stop = within(drawer).getByRole('listitem', { name: 'Emergency stop active' });
    expect(stop.textContent).toContain('Trading halted by op@example.com');
    expect(stop.textContent).toContain('Critical · trading · ');
    expect(within(stop).getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    expect(within(stop).getByRole('button', { name: 'Resolve' })).toBeTruthy();
    const backup = within(drawer).getByRole('listitem', { name: 'Backup failed' });
    expect(backup.textContent).toContain('×3');
    expect(within(backup).queryByRole('button', { name: 'Resolve' })).toBeNull();
    // What the user dismissed is listed apart, without Dismiss.
    expect(within(drawer).getByText('Dismissed by you (1)')).toBeTruthy();
    expect(within(within(drawer).getByRole('listitem', { name: 'Slow requests' })).queryByRole('button', { name: 'Dismiss' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('dismisses on the server and the count drops', async () => {
    const fetchMock = serve([STOP, STALE]);
    renderBell();
    await waitFor(() => expect(count()).toBe('2'));
    await userEvent.click(screen.getByTestId('alert-bell'));
    const backup = screen.getByRole('listitem', { name: 'Backup failed' });
    await userEvent.click(within(backup).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(count()).toBe('1'));
    expect(fetchMock).toHaveBeenCalledWith('/api/system/alerts/2/dismiss', expect.objectContaining({ method: 'POST' }));
    expect(screen.getByText('Dismissed by you (1)')).toBeTruthy();
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it('resolves for everyone and the alert leaves the list', async () => {
    serve([STOP]);
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    await userEvent.click(screen.getByTestId('alert-bell'));
    await userEvent.click(within(screen.getByRole('listitem', { name: 'Emergency stop active' })).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Emergency stop active' })).toBeNull());
    expect(count()).toBe('0');
    expect(screen.getByText('No active alerts.')).toBeTruthy();
  });

  it('shows the server refusing a dismissal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/dismiss')
          ? json(404, { success: false, error: { code: 'not_found', message: 'Alert not found' } })
          : json(200, { success: true, data: { alerts: [STALE], count: 1 } }),
      ),
    );
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    await userEvent.click(screen.getByTestId('alert-bell'));
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Alert not found')).toBeTruthy();
  });

  it('goes grey and says last known while the server does not answer', async () => {
    serve([STOP]);
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    act(() => reportLost());
    const bell = screen.getByTestId('alert-bell');
    expect(bell.getAttribute('aria-label')).toBe('Alerts: 1 active (last known)');
    expect(bell.getAttribute('data-stale')).toBe('true');
    expect(screen.getByTestId('alert-count').className).toContain('bg-slate-400');
    await userEvent.click(bell);
    expect(screen.getByText('The server is not answering: these are the last known alerts.')).toBeTruthy();
    act(() => reportAnswer());
    expect(bell.getAttribute('aria-label')).toBe('Alerts: 1 active');
  });
});

describe('activeAlerts', () => {
  it('leaves out what the user dismissed', () => {
    expect(activeAlerts([STOP, STALE, OLD]).map((a) => a.id)).toEqual([1, 2]);
    expect(activeAlerts(undefined)).toEqual([]);
  });
});
