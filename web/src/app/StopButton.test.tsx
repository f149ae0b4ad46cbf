import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STOP_CONFIRM, StopButton } from './StopButton';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderStop() {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: true, data: { trading_halted: true, cancelled_orders: 1 } }), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <StopButton />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('StopButton', () => {
  it('says what the emergency stop does and keeps', () => {
    expect(STOP_CONFIRM).toBe(
      'Emergency stop: halt automated trading, refuse new orders that add exposure and cancel resting orders that add exposure. Protective stop-loss sells stay armed, and you can still sell to reduce a position. Continue?',
    );
  });

  it('asks first in a dialog and stops only when confirmed', async () => {
    const fetchMock = renderStop();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    const dialog = screen.getByRole('dialog', { name: 'Emergency Stop' });
    expect(within(dialog).getByText(STOP_CONFIRM)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop trading' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trading/stop');
    expect(init.method).toBe('POST');
  });
});
