import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import type { User } from '@/lib/types';
import Account from './routes/Account';
import Users from './routes/Users';

const op: User = { id: 'op', email: 'op@example.com', name: 'Olga', role: 'operator', created_at: '2026-05-01T09:00:00Z', last_login: null, disabled: false };
const tess: User = { id: 't1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '2026-05-02T09:00:00Z', last_login: null, disabled: false };

type Reply = { status?: number; body: unknown };
type Handler = (method: string, path: string, body: unknown) => Reply | undefined;

const ok = (data: unknown): Reply => ({ body: { success: true, data } });
const fail = (status: number, code: string, message: string, fields?: Record<string, string>): Reply => ({ status, body: { success: false, error: { code, message, fields } } });

/** Stubs fetch: handle answers a call or leaves it to the defaults (me and the user list). */
function serve(handle: Handler = () => undefined, me: User = op) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const path = url.replace(/^\/api/, '');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(init.body as string) : undefined;
    calls.push({ method, path, body });
    const r =
      handle(method, path, body) ??
      (path === '/auth/me'
        ? ok(me)
        : path === '/users' && method === 'GET'
          ? ok({ users: [op, tess] })
          : path === '/auth/sessions' && method === 'GET'
            ? ok({ sessions: [] })
            : fail(404, 'not_found', 'No such API endpoint'));
    return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderScreen(ui: React.ReactElement) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('test-token'));
afterEach(() => vi.unstubAllGlobals());

describe('Users screen', () => {
  it('lists accounts with email, name, role, status and created date', async () => {
    serve();
    renderScreen(<Users />);
    const row = (await screen.findByText('t@example.com')).closest('tr')!;
    expect(within(row).getByText('Tess')).toBeTruthy();
    expect((within(row).getByRole('combobox', { name: 'Role of t@example.com' }) as HTMLSelectElement).value).toBe('trader');
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Disable t@example.com' })).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('shows each account as a card on a phone, with its actions inside it', async () => {
    serve();
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: false, media: q, addEventListener: () => {}, removeEventListener: () => {} }));
    renderScreen(<Users />);
    const cards = await screen.findAllByTestId('user-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByRole('table')).toBeNull();
    const card = cards.find((c) => c.textContent?.includes('t@example.com'))!;
    expect(within(card).getByText('Tess')).toBeTruthy();
    expect((within(card).getByRole('combobox', { name: 'Role of t@example.com' }) as HTMLSelectElement).value).toBe('trader');
    expect(within(card).getByRole('button', { name: 'Disable t@example.com' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Reset password of t@example.com' })).toBeTruthy();
  });

  it('disables a user, and does not offer the operator to disable themself', async () => {
    const calls = serve((method, path) => {
      if (method === 'PATCH' && path === '/users/t1') return ok({ ...tess, disabled: true });
      if (method === 'PATCH' && path === '/users/op') return fail(409, 'conflict', 'You cannot disable your own account');
      return undefined;
    });
    renderScreen(<Users />);
    await userEvent.click(await screen.findByRole('button', { name: 'Disable t@example.com' }));
    // Said before it happens: the sessions end and the API tokens are revoked (issue 33, item 4).
    const confirm = screen.getByRole('group', { name: 'Confirm disabling t@example.com' });
    expect(confirm.textContent).toContain('Their sessions end and their API tokens are revoked');
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Disable' }));
    expect((await screen.findByRole('status')).textContent).toBe('Disabled t@example.com; their sessions ended and their API tokens were revoked');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ disabled: true });

    const self = screen.getByRole('button', { name: 'Disable op@example.com' }) as HTMLButtonElement;
    expect(self.disabled).toBe(true);
    expect(self.getAttribute('title')).toBe('You cannot disable your own account');
    expect(document.getElementById(self.getAttribute('aria-describedby')!)?.textContent).toBe('Your own account: another operator can disable it');
    await userEvent.click(self);
    expect(calls.filter((c) => c.method === 'PATCH' && c.path === '/users/op')).toHaveLength(0);
  });

  it('changes a role', async () => {
    const calls = serve((method, path) => (method === 'PATCH' && path === '/users/t1' ? ok({ ...tess, role: 'operator' }) : undefined));
    renderScreen(<Users />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Role of t@example.com' }), 'operator');
    expect((await screen.findByRole('status')).textContent).toBe('t@example.com is now operator');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'operator' });
  });

  it('resets a password, showing the rule the server applies', async () => {
    serve((method, path, body) => {
      if (method !== 'POST' || path !== '/users/t1/password') return undefined;
      const pw = (body as { new_password: string }).new_password;
      return pw.length < 8 ? fail(400, 'invalid', 'Password must be at least 8 characters', { new_password: 'Password must be at least 8 characters' }) : ok({ password_reset: true });
    });
    renderScreen(<Users />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reset password of t@example.com' }));
    expect(screen.getByText('Their sessions end and their API tokens are revoked.')).toBeTruthy();
    const input = screen.getByLabelText('New password for t@example.com');
    await userEvent.type(input, 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    await userEvent.type(input, '-but-longer');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('status')).textContent).toBe('Password of t@example.com reset; their sessions have ended and their API tokens were revoked');
  });

  it('resets a user\'s second factor after a confirmation (issue 33, item 5)', async () => {
    const calls = serve((method, path) => (method === 'POST' && path === '/users/t1/totp/reset' ? ok({ totp_reset: true }) : undefined));
    renderScreen(<Users />);
    expect(screen.queryByRole('button', { name: 'Reset second factor of op@example.com' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Reset second factor of t@example.com' }));
    const confirm = screen.getByRole('group', { name: 'Confirm resetting the second factor of t@example.com' });
    expect(confirm.textContent).toContain('until they set it up again, their password alone signs in');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reset second factor' }));
    expect((await screen.findByRole('status')).textContent).toBe('Two-factor authentication of t@example.com reset; they sign in with their password and can set it up again');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/users/t1/totp/reset']);
  });

  it('creates a user and shows field errors from the server', async () => {
    const calls = serve((method, path, body) => {
      if (method !== 'POST' || path !== '/users') return undefined;
      const u = body as { email: string };
      return u.email === 'taken@example.com' ? fail(409, 'conflict', 'An account with this email already exists') : fail(400, 'invalid', 'Enter a valid email address', { email: 'Enter a valid email address' });
    });
    renderScreen(<Users />);
    await screen.findByText('t@example.com');
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'taken@example.com');
    await userEvent.type(screen.getByLabelText('Name'), 'Tom');
    await userEvent.type(screen.getByLabelText('Password'), 'password1');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'operator');
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists');
    expect(calls.filter((c) => c.path === '/users' && c.method === 'POST').pop()?.body).toEqual({ email: 'taken@example.com', name: 'Tom', password: 'password1', role: 'operator' });
  });

  it('tells a trader the screen is for operators', async () => {
    serve(undefined, tess);
    renderScreen(<Users />);
    expect((await screen.findByRole('alert')).textContent).toBe('This screen is for operators.');
  });
});

describe('Account screen', () => {
  it('changes the password and shows the server messages', async () => {
    const calls = serve((method, path, body) => {
      if (method !== 'POST' || path !== '/auth/password') return undefined;
      const b = body as { current_password: string };
      return b.current_password === 'right-one' ? ok({ password_changed: true }) : fail(400, 'invalid', 'Current password is incorrect', { current_password: 'Current password is incorrect' });
    });
    renderScreen(<Account />);
    await userEvent.type(screen.getByLabelText('Current password'), 'wrong-one');
    await userEvent.type(screen.getByLabelText('New password'), 'new-password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-passw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(calls.some((c) => c.path === '/auth/password')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Current password'));
    await userEvent.type(screen.getByLabelText('Current password'), 'right-one');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Changing your password signs out your other sessions and revokes your API tokens.')).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe('Password changed. Your other sessions have been signed out and your API tokens revoked.');
    expect(calls.filter((c) => c.path === '/auth/password').pop()?.body).toEqual({ current_password: 'right-one', new_password: 'new-password' });
  });
});

describe('Account sessions', () => {
  const here = { id: 's-here', created_at: '2026-05-03T09:00:00Z', last_used_at: '2026-05-03T10:00:00Z', expires_at: '2026-05-03T21:00:00Z', user_agent: 'Firefox/140', remote: '127.0.0.1', current: true };
  const phone = { ...here, id: 's-phone', user_agent: 'Phone/1.0', remote: '10.0.0.7', current: false };
  const tablet = { ...here, id: 's-tablet', user_agent: 'Tablet/2.0', remote: '10.0.0.8', current: false };

  it('lists the sessions, signs one out and then all the others', async () => {
    let list = [here, phone, tablet];
    const calls = serve((method, path) => {
      if (method === 'GET' && path === '/auth/sessions') return ok({ sessions: list });
      if (method === 'DELETE' && path === '/auth/sessions/s-phone') {
        list = list.filter((s) => s.id !== 's-phone');
        return ok({ ended: true });
      }
      if (method === 'POST' && path === '/auth/sessions/end-others') {
        const n = list.filter((s) => !s.current).length;
        list = list.filter((s) => s.current);
        return ok({ ended: n });
      }
      return undefined;
    });
    renderScreen(<Account />);
    const mine = (await screen.findByText('Firefox/140')).closest('tr')!;
    expect(within(mine).getByText('This session')).toBeTruthy();
    expect(within(mine).queryByRole('button', { name: 'Sign out' })).toBeNull();
    const phoneRow = screen.getByText('Phone/1.0').closest('tr')!;
    expect(within(phoneRow).getByText('10.0.0.7')).toBeTruthy();
    await userEvent.click(within(phoneRow).getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('status')).textContent).toBe('Session signed out.');
    await screen.findByText('Tablet/2.0');
    expect(screen.queryByText('Phone/1.0')).toBeNull();

    const everywhere = screen.getByRole('button', { name: 'Sign out everywhere else' });
    expect(document.getElementById(everywhere.getAttribute('aria-describedby')!)?.textContent).toContain('also revokes your API tokens');
    await userEvent.click(everywhere);
    expect((await screen.findByText(/Signed out of 1 other session/)).textContent).toBe('Signed out of 1 other session and revoked your API tokens. This one stays signed in.');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/auth/sessions/end-others')).toBe(true);
    await vi.waitFor(() => expect(screen.queryByText('Tablet/2.0')).toBeNull());
    expect((screen.getByRole('button', { name: 'Sign out everywhere else' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
