import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TotpSection } from './components/TotpSection';

const off = { enabled: false, pending: false, recovery_codes_left: 0, required: false, period_seconds: 30 };
const on = { ...off, enabled: true, recovery_codes_left: 10 };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

afterEach(() => vi.unstubAllGlobals());

describe('Account: two-factor authentication', () => {
  it('sets up, refuses a wrong code under its field, then shows the recovery codes once', async () => {
    let enabled = false;
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      const body = init.body ? (JSON.parse(init.body as string) as { code?: string }) : {};
      switch (url) {
        case '/api/auth/totp':
          return json(200, { success: true, data: enabled ? on : off });
        case '/api/auth/totp/setup':
          return json(200, { success: true, data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Kestrel:a@example.com?secret=JBSWY3DPEHPK3PXP' } });
        case '/api/auth/totp/confirm':
          if (body.code !== '123456') return json(400, { success: false, error: { code: 'invalid', message: 'That code is not right', fields: { code: 'That code is not right' } } });
          enabled = true;
          return json(200, { success: true, data: { enabled: true, recovery_codes: ['aaaa-bbbb-cccc-dddd'] } });
      }
      return json(404, { success: false, error: { code: 'not_found', message: 'no' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <TotpSection />
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Code from the app'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('That code is not right')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Code from the app'));
    await userEvent.type(screen.getByLabelText('Code from the app'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByRole('list', { name: 'Recovery codes' })).textContent).toContain('aaaa-bbbb-cccc-dddd');
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText(/10 unused recovery codes left/)).toBeTruthy();
    expect(screen.queryByText('aaaa-bbbb-cccc-dddd')).toBeNull();
  });
});
