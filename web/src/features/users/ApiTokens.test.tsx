import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import type { User } from '@/lib/types';
import Account from './routes/Account';
import type { ApiToken } from './tokensApi';

const op: User = { id: 'op', email: 'op@example.com', name: 'Olga', role: 'operator', created_at: '2026-05-01T09:00:00Z', last_login: null, disabled: false };
const tess: User = { id: 't1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '2026-05-02T09:00:00Z', last_login: null, disabled: false };

type Reply = { status?: number; body: unknown };
const ok = (data: unknown): Reply => ({ body: { success: true, data } });
const fail = (status: number, code: string, message: string, fields?: Record<string, string>): Reply => ({ status, body: { success: false, error: { code, message, fields } } });

const reader: ApiToken = {
  id: 'k1',
  user_id: 'op',
  name: 'reader',
  scope: 'read',
  created_at: '2026-05-03T09:00:00Z',
  expires_at: '2099-05-03T09:00:00Z',
  last_used_at: '2026-05-04T10:00:00Z',
};

/** A small server for the Account screen: tokens per user, created and revoked. */
function serve(me: User, totpOn = false) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const tokens: ApiToken[] = [reader];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, '');
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ method, path, body });
      const owner = new URL(path, 'http://x').searchParams.get('user_id') ?? me.id;
      let r: Reply;
      if (path === '/auth/me') r = ok(me);
      else if (path === '/auth/sessions') r = ok({ sessions: [] });
      else if (path === '/auth/totp') r = ok({ enabled: totpOn, pending: false, recovery_codes_left: totpOn ? 10 : 0, required: false, period_seconds: 30 });
      else if (path === '/users') r = ok({ users: [op, tess] });
      else if (method === 'GET' && path.startsWith('/tokens')) r = ok({ tokens: tokens.filter((t) => t.user_id === owner) });
      else if (method === 'POST' && path.startsWith('/tokens')) {
        const b = body as { name: string; scope: ApiToken['scope']; expires_at: string; password?: string; code?: string };
        if (!b.name) r = fail(400, 'invalid', 'Name is required', { name: 'Name is required' });
        else if (b.password !== 'my-password') r = fail(400, 'invalid', 'Password is incorrect', { password: 'Password is incorrect' });
        else if (totpOn && b.code !== '123456') r = fail(400, 'invalid', 'That code is not right', { code: 'That code is not right' });
        else {
          const t: ApiToken = { id: `k${tokens.length + 1}`, user_id: owner, name: b.name, scope: b.scope, created_at: '2026-05-05T09:00:00Z', expires_at: b.expires_at, last_used_at: null };
          tokens.push(t);
          r = { status: 201, body: { success: true, data: { ...t, token: 'kst_secret-shown-once' } } };
        }
      } else if (method === 'DELETE' && path.startsWith('/tokens/')) {
        const i = tokens.findIndex((t) => t.id === path.slice('/tokens/'.length));
        r = i < 0 ? fail(404, 'not_found', 'No such API token') : ok({ revoked: true, id: tokens.splice(i, 1)[0]?.id });
      } else r = fail(404, 'not_found', 'No such API endpoint');
      return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderAccount() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <Account />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The API tokens card (the Account page has other forms with a Name field). */
const tokensCard = () => within(screen.getByRole('heading', { name: 'API tokens' }).closest('section')!);

beforeEach(() => setToken('test-token'));
afterEach(() => vi.unstubAllGlobals());

describe('Account API tokens', () => {
  it('lists tokens with last use and never a secret, creates one shown once with a copy button, and revokes', async () => {
    const calls = serve(tess);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAccount();
    expect(await screen.findByText('No API tokens.')).toBeTruthy();
    expect(screen.queryByLabelText('Tokens of')).toBeNull(); // traders manage their own only

    // A field error from the server shows under its field.
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();

    await userEvent.type(tokensCard().getByLabelText('Name'), 'bot-1');
    await userEvent.selectOptions(screen.getByLabelText('Scope'), 'paper');
    await userEvent.selectOptions(screen.getByLabelText('Expires in'), '30');
    // The password is asked again (issue 33, item 4); a wrong one shows under its field and is cleared.
    expect(tokensCard().getByTestId('token-end-note').textContent).toContain('Tokens end when their owner changes the password or signs out everywhere');
    await userEvent.type(tokensCard().getByLabelText('Your password'), 'guess');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Password is incorrect')).toBeTruthy();
    expect((tokensCard().getByLabelText('Your password') as HTMLInputElement).value).toBe('');
    expect(tokensCard().queryByLabelText('Two-factor code')).toBeNull();
    await userEvent.type(tokensCard().getByLabelText('Your password'), 'my-password');
    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('region', { name: 'New token' });
    expect(within(shown).getByTestId('token-secret').textContent).toBe('kst_secret-shown-once');
    const sent = calls.filter((c) => c.method === 'POST').pop()!.body as { name: string; scope: string; expires_at: string; password: string };
    expect(sent.name).toBe('bot-1');
    expect(sent.password).toBe('my-password');
    expect(sent.scope).toBe('paper');
    const days = (Date.parse(sent.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);

    await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('kst_secret-shown-once');
    expect((await within(shown).findByRole('status')).textContent).toBe('Copied.');

    const row = (await screen.findByText('bot-1', { selector: 'td' })).closest('tr')!;
    expect(within(row).getByText('paper')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();

    // Done hides the secret for good: the list has no way to show it again.
    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('kst_secret-shown-once')).toBeNull();

    await userEvent.click(within(row).getByRole('button', { name: 'Revoke bot-1' }));
    await vi.waitFor(() => expect(screen.queryByText('bot-1', { selector: 'td' })).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/tokens/k2')).toBe(true);
  });

  it("lets an operator manage another user's tokens", async () => {
    const calls = serve(op);
    renderAccount();
    const mine = (await screen.findByText('reader', { selector: 'td' })).closest('tr')!;
    expect(within(mine).queryByText('Never')).toBeNull(); // it has a last use
    await userEvent.selectOptions(await screen.findByLabelText('Tokens of'), 't1');
    expect(await screen.findByText('No API tokens.')).toBeTruthy();
    await userEvent.type(tokensCard().getByLabelText('Name'), 'for-tess');
    await userEvent.type(tokensCard().getByLabelText('Your password'), 'my-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('region', { name: 'New token' });
    expect(calls.some((c) => c.method === 'POST' && c.path === '/tokens?user_id=t1')).toBe(true);
    expect(await screen.findByText('for-tess', { selector: 'td' })).toBeTruthy();
  });

  it('asks for the two-factor code as well when it is on', async () => {
    const calls = serve(tess, true);
    renderAccount();
    await screen.findByText('No API tokens.');
    await userEvent.type(tokensCard().getByLabelText('Name'), 'bot-2');
    await userEvent.type(tokensCard().getByLabelText('Your password'), 'my-password');
    await userEvent.type(await tokensCard().findByLabelText('Two-factor code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('region', { name: 'New token' });
    expect(calls.filter((c) => c.method === 'POST').pop()?.body).toMatchObject({ name: 'bot-2', password: 'my-password', code: '123456' });
  });
});
