import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TradingForm } from './components/TradingForm';

const ok = (data: unknown, status = 200) => new Response(JSON.stringify({ success: true, data }), { status, headers: { 'Content-Type': 'application/json' } });
const fail = (status: number, error: unknown) => new Response(JSON.stringify({ success: false, error }), { status, headers: { 'Content-Type': 'application/json' } });

const settings = { settings: { trading: { defaultParameters: { quantity: 0.02, orderType: 'market' }, automation: { confirmTrades: true } } } };
const ticker = { symbol: 'BTC-USD', price: '50000', bid: '49999', ask: '50001', volume_24h: '10', timestamp: '2026-05-01T00:00:00Z' };

/** Routes the form's calls; trade calls get `trade`. */
function server(trade: () => Response) {
  const calls: { url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.startsWith('/api/settings')) return ok(settings);
    if (url.startsWith('/api/market-data/ticker/')) return ok(ticker);
    return trade();
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderForm(onExecuted = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TradingForm onExecuted={onExecuted} />
    </QueryClientProvider>,
  );
  return onExecuted;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TradingForm', () => {
  it('prefills the default quantity, asks to confirm, and sends the spec payload', async () => {
    const calls = server(() => ok({ order: { id: 'o1', status: 'filled', side: 'BUY', symbol: 'BTC-USD', quantity: '0.02', average_fill_price: '50001' } }, 201));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const onExecuted = renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await screen.findByText('$50,000.00');
    expect(screen.getByText('Est. Price')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(confirm).toHaveBeenCalledWith('Confirm BUY 0.02 BTC-USD at market?');
    expect(calls.some((c) => c.url === '/api/trading/execute')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    await waitFor(() => expect(onExecuted).toHaveBeenCalled());
    const trade = calls.find((c) => c.url === '/api/trading/execute');
    expect(trade?.body).toEqual({ symbol: 'BTC-USD', action: 'BUY', quantity: '0.02', order_type: 'market', strategy: '' });
  });

  it("shows the server's refusal", async () => {
    server(() => fail(422, { code: 'rejected', message: 'Insufficient balance for this trade' }));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Insufficient balance for this trade');
  });

  it('mirrors the limit-price rule before sending', async () => {
    const calls = server(() => ok({}));
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'Show Advanced' }));
    await userEvent.selectOptions(screen.getByLabelText('Order Type'), 'limit');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(screen.getByText('Valid price is required for limit orders')).toBeTruthy();
    expect(screen.getByText('Limit Price', { selector: 'span' })).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/trading'))).toBe(false);
  });
});
