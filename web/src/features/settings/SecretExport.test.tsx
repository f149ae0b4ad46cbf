import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecretExport, SECRET_EXPORT_WARNING } from './components/SecretExport';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Export with secrets', () => {
  it('asks for the password, shows a wrong one, and downloads with the right one', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { password: string };
        sent.push({ method: init?.method, url, body });
        if (body.password !== 'right-password') {
          return json(400, { success: false, error: { code: 'invalid', message: 'Password is incorrect', fields: { password: 'Password is incorrect' } } });
        }
        return json(200, { success: true, data: { settings: {}, exportDate: '2026-01-01T00:00:00Z', version: '1.0.0', checksum: 'abc' } });
      }),
    );
    const onExported = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SecretExport onExported={onExported} />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export with secrets' }));
    expect(screen.getByText(SECRET_EXPORT_WARNING)).toBeTruthy();
    const dialog = screen.getByRole('dialog');
    const submit = () => userEvent.click(dialog.querySelector('button[type="submit"]')!);

    await userEvent.type(screen.getByLabelText('Your password'), 'wrong');
    await submit();
    expect(await screen.findByText('Password is incorrect')).toBeTruthy();
    expect(onExported).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Your password'));
    await userEvent.type(screen.getByLabelText('Your password'), 'right-password');
    await submit();
    await waitFor(() => expect(onExported).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([
      { method: 'POST', url: '/api/settings/export', body: { password: 'wrong' } },
      { method: 'POST', url: '/api/settings/export', body: { password: 'right-password' } },
    ]);
  });
});
