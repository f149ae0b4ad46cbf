import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Login from './routes/Login';

const user = { id: 'u1', email: 'ops@example.com', name: 'Olga', role: 'operator', created_at: '2026-01-01T00:00:00Z', disabled: false };
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const sentBody = (fetchMock: ReturnType<typeof vi.fn>, call: number) => JSON.parse((fetchMock.mock.calls[call]?.[1] as RequestInit).body as string) as Record<string, string>;

function renderLogin() {
  vi.stubGlobal('location', { ...window.location, pathname: '/login', assign: vi.fn() });
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <Login />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signIn() {
  await userEvent.type(screen.getByLabelText('Email'), 'ops@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

/** Stubs fetch: GET /api/auth/setup (the first-operator notice) answers that
 * accounts exist; every other call goes to fetchMock, in order. */
function stubFetch(fetchMock: (url: string, init?: RequestInit) => Promise<Response>) {
  const setup = { success: true, data: { needs_first_operator: false, first_operator_from_cli: false } };
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => (url === '/api/auth/setup' ? Promise.resolve(answer(200, setup)) : fetchMock(url, init)));
}

afterEach(() => vi.unstubAllGlobals());

describe('login with two-factor authentication', () => {
  it('asks for the code when the server does and sends it with the password', async () => {
    const ask = 'Enter the 6-digit code from your authenticator app, or a recovery code';
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer(401, { success: false, error: { code: 'unauthorized', message: ask, fields: { code: ask } } }))
      .mockResolvedValueOnce(answer(200, { success: true, data: { token: 't', user } }));
    stubFetch(fetchMock);
    renderLogin();
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    await signIn();
    expect((await screen.findByRole('alert')).textContent).toBe(ask);
    expect(sentBody(fetchMock, 0)).toEqual({ email: 'ops@example.com', password: 'correct horse' });

    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(sentBody(fetchMock, 1)).toEqual({ email: 'ops@example.com', password: 'correct horse', code: '123456' });
  });

  it('lets an operator who must enrol add the key, sign in with a code and see the recovery codes once', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        answer(403, {
          success: false,
          error: {
            code: 'forbidden',
            message: 'Operators must use two-factor authentication',
            fields: { code: 'Enter the 6-digit code to turn on two-factor authentication', totp_secret: 'JBSWY3DPEHPK3PXP', totp_uri: 'otpauth://totp/Kestrel:ops@example.com?secret=JBSWY3DPEHPK3PXP' },
          },
        }),
      )
      .mockResolvedValueOnce(answer(401, { success: false, error: { code: 'unauthorized', message: 'That code is not right', fields: { code: 'That code is not right' } } }))
      .mockResolvedValueOnce(answer(200, { success: true, data: { token: 't', user, recovery_codes: ['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh'] } }));
    stubFetch(fetchMock);
    renderLogin();
    await signIn();
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Code from the app'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('That code is not right', { selector: 'p' })).toBeTruthy();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy(); // the key stays for another try
    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.textContent).toContain('aaaa-bbbb-cccc-dddd');
    expect(sentBody(fetchMock, 2).code).toBe('654321');
  });
});
