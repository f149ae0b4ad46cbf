import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TradingForm } from './components/TradingForm';

const ok = (data: unknown, status = 200) => new Response(JSON.stringify({ success: true, data }), { status, headers: { 'Content-Type': 'application/json' } });
const fail = (status: number, error: unknown) => new Response(JSON.stringify({ success: false, error }), { status, headers: { 'Content-Type': 'application/json' } });

const settings = { settings: { trading: { defaultParameters: { quantity: 0.02, orderType: 'market' }, automation: { confirmTrades: true } } } };
const ticker = { symbol: 'BTC-USD', price: '50000', bid: '49999', ask: '50001', volume_24h: '10', timestamp: '2026-05-01T00:00:00Z' };

const product = (product_id: string, price_increment: string) => ({
  product_id,
  base_currency: product_id.split('-')[0],
  quote_currency: 'USD',
  price_increment,
  base_increment: '0.00000001',
  base_min_size: '0.00001',
  status: 'online',
  price: '1',
});
const products = { products: [product('BTC-USD', '0.01'), product('ETH-USD', '0.01'), product('ADA-USD', '0.0001'), product('SOL-USD', '0.01')] };

const balances = {
  balances: [
    { asset: 'USD', available: '10000', hold: '500', total: '10500' },
    { asset: 'BTC', available: '0.12345679', hold: '0.01', total: '0.13345679' },
  ],
  fees: { taker_rate: '0.006', maker_rate: '0.004' },
};

/** Routes the form's calls; trade calls get `trade`; products and balances answer unless told otherwise. */
function server(trade: (url: string) => Response, productsReply: () => Response = () => ok(products), balancesReply: () => Response = () => ok(balances)) {
  const calls: { url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.startsWith('/api/settings')) return ok(settings);
    if (url.startsWith('/api/market-data/ticker/')) return ok(ticker);
    if (url === '/api/market-data/products') return productsReply();
    if (url === '/api/trading/balances') return balancesReply();
    return trade(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** An order was sent (a POST with a body), not just the balances read. */
const isOrder = (c: { url: string; body: unknown }) => c.url.startsWith('/api/trading') && c.body !== undefined;

/** Confirms the order in the in-app dialog. */
async function confirmOrder(side = 'BUY') {
  await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm Order' })).getByRole('button', { name: `Confirm ${side}` }));
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
  it('prefills the default quantity, confirms in a dialog with total and fee, and sends the spec payload', async () => {
    const calls = server(() => ok({ order: { id: 'o1', status: 'filled', side: 'BUY', symbol: 'BTC-USD', quantity: '0.02', average_fill_price: '50001' } }, 201));
    const onExecuted = renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await screen.findByText('$50,000.00');
    expect(screen.getByText('Est. Price')).toBeTruthy();
    await screen.findByText('Est. Fee (0.6% taker)');

    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    let dialog = screen.getByRole('dialog', { name: 'Confirm Order' });
    const rows = [...within(dialog).getByTestId('order-confirm').children].map((r) => [...r.children].map((c) => c.textContent));
    // 0.02 x 50001 (the ask) = 1000.02; its fee at the taker rate 0.006 = 6.00012
    expect(rows).toEqual([
      ['Side', 'BUY'],
      ['Symbol', 'BTC-USD'],
      ['Type', 'Market'],
      ['Quantity', '0.02 BTC'],
      ['Est. Price', '$50,001.00at the ask'],
      ['Est. Total', '$1,000.02'],
      ['Est. Fee (0.6% taker)', '$6.00'],
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.url === '/api/trading/execute')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    dialog = screen.getByRole('dialog', { name: 'Confirm Order' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm BUY' }));
    await waitFor(() => expect(onExecuted).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
    const trade = calls.find((c) => c.url === '/api/trading/execute');
    expect(trade?.body).toEqual({ symbol: 'BTC-USD', action: 'BUY', quantity: '0.02', order_type: 'market', strategy: '', client_order_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('places a trailing stop: trail in percent or price, optional activation, sent to its endpoint', async () => {
    const calls = server(() => ok({ order: { id: 'o3', status: 'open', side: 'SELL', symbol: 'BTC-USD', quantity: '0.02', average_fill_price: null } }, 201));
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'SELL' }));
    await userEvent.click(screen.getByRole('button', { name: 'Show Advanced' }));
    await userEvent.selectOptions(screen.getByLabelText('Order Type'), 'trailing_stop');
    await userEvent.click(screen.getByRole('button', { name: 'SELL BTC-USD' }));
    expect(screen.getByText('Trail percent must be above 0 and below 100')).toBeTruthy();
    expect(calls.some(isOrder)).toBe(false);

    await userEvent.type(screen.getByLabelText('Trail'), '2.5');
    await userEvent.type(screen.getByLabelText('Activation Price (optional)'), '51000');
    expect(screen.getByText('2.5%')).toBeTruthy(); // the summary's trail
    await userEvent.click(screen.getByRole('button', { name: 'SELL BTC-USD' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Order' });
    expect(within(dialog).getByText('Trail').nextSibling?.textContent).toBe('2.5% from $51,000.00');
    expect(within(dialog).getByText('Type').nextSibling?.textContent).toBe('Trailing Stop');
    await confirmOrder('SELL');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/trading/orders/trailing-stop')).toBe(true));
    expect(calls.find((c) => c.url === '/api/trading/orders/trailing-stop')?.body).toEqual({
      symbol: 'BTC-USD',
      side: 'SELL',
      quantity: '0.02',
      trail_percent: '2.5',
      activation_price: '51000',
      strategy: '',
      client_order_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    await userEvent.type(screen.getByLabelText('Quantity'), '0.01');
    await userEvent.selectOptions(screen.getByLabelText('Trail unit'), 'amount');
    await userEvent.type(screen.getByLabelText('Trail'), '500');
    await userEvent.click(screen.getByRole('button', { name: 'SELL BTC-USD' }));
    await confirmOrder('SELL');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/trading/orders/trailing-stop')).toHaveLength(2));
    expect(calls.filter((c) => c.url === '/api/trading/orders/trailing-stop')[1]?.body).toMatchObject({ trail_amount: '500', quantity: '0.01' });
  });

  it("shows the server's refusal", async () => {
    server(() => fail(422, { code: 'rejected', message: 'Insufficient balance for this trade' }));
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    await confirmOrder();
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
    expect(calls.some(isOrder)).toBe(false);
  });

  it("follows the symbol's price increment: 0.4512 is a price for ADA-USD, not for BTC-USD", async () => {
    const calls = server(() => ok({ order: { id: 'o2', status: 'open', side: 'BUY', symbol: 'ADA-USD', quantity: '100', average_fill_price: null } }, 201));
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'Show Advanced' }));
    await userEvent.selectOptions(screen.getByLabelText('Order Type'), 'limit');
    await waitFor(() => expect(calls.some((c) => c.url === '/api/market-data/products')).toBe(true));
    await waitFor(() => expect(screen.getByLabelText('Limit Price').getAttribute('step')).toBe('0.01'));
    await userEvent.type(screen.getByLabelText('Limit Price'), '0.4512');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(screen.getByText('Price must be a multiple of 0.01')).toBeTruthy();
    expect(calls.some(isOrder)).toBe(false);

    await userEvent.selectOptions(screen.getByLabelText('Symbol'), 'ADA-USD');
    expect(screen.getByLabelText('Limit Price').getAttribute('step')).toBe('0.0001');
    await userEvent.clear(screen.getByLabelText('Quantity'));
    await userEvent.type(screen.getByLabelText('Quantity'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'BUY ADA-USD' }));
    await confirmOrder();
    await waitFor(() => expect(calls.find((c) => c.url === '/api/trading/orders/limit')?.body).toEqual({ symbol: 'ADA-USD', side: 'BUY', quantity: '100', price: '0.4512', strategy: '', client_order_id: expect.any(String) }));
  });

  it('checks quantity against the size increment and minimum', async () => {
    const calls = server(() => ok({}));
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    expect(await screen.findByText('Min 0.00001 BTC')).toBeTruthy();
    expect(screen.getByLabelText('Quantity').getAttribute('step')).toBe('0.00000001');
    await userEvent.clear(screen.getByLabelText('Quantity'));
    await userEvent.type(screen.getByLabelText('Quantity'), '0.000001');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(screen.getByText('Quantity must be at least 0.00001')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Quantity'));
    await userEvent.type(screen.getByLabelText('Quantity'), '0.010000005');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(screen.getByText('Quantity must be a multiple of 0.00000001')).toBeTruthy();
    expect(calls.some(isOrder)).toBe(false);
  });

  it('does not block on increments while the products are unavailable', async () => {
    const calls = server(
      () => ok({ order: { id: 'o3', status: 'open', side: 'BUY', symbol: 'BTC-USD', quantity: '0.02', average_fill_price: null } }, 201),
      () => fail(503, { code: 'unavailable', message: 'no products' }),
    );
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'Show Advanced' }));
    await userEvent.selectOptions(screen.getByLabelText('Order Type'), 'limit');
    expect(screen.getByLabelText('Limit Price').getAttribute('step')).toBe('any');
    await userEvent.type(screen.getByLabelText('Limit Price'), '0.4512');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    await confirmOrder();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/trading/orders/limit')).toBe(true));
  });

  it('retries an unanswered order with the same client order id, showing it is retrying; a new submission gets a new id', async () => {
    let n = 0;
    const calls = server((url) =>
      url !== '/api/trading/execute'
        ? ok({})
        : ++n === 1
        ? new Response(JSON.stringify({ success: false, error: { code: 'unavailable', message: 'No instance running the trading engine answered; retry' } }), { status: 503 })
        : ok({ order: { id: `o${n}`, status: 'filled', side: 'BUY', symbol: 'BTC-USD', quantity: '0.02', average_fill_price: '50001' } }, 201),
    );
    const onExecuted = renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    await confirmOrder();
    expect((await screen.findByTestId('retrying')).textContent).toBe('Retrying (1 of 3): the server answered 503; sending the same order (same client order id) again.');
    await waitFor(() => expect(onExecuted).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(screen.queryByTestId('retrying')).toBeNull();
    const sent = calls.filter((c) => c.url === '/api/trading/execute').map((c) => (c.body as { client_order_id: string }).client_order_id);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);

    await userEvent.type(screen.getByLabelText('Quantity'), '0.01');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    await confirmOrder();
    await waitFor(() => expect(onExecuted).toHaveBeenCalledTimes(2));
    const third = calls.filter((c) => c.url === '/api/trading/execute')[2]?.body as { client_order_id: string };
    expect(third.client_order_id).not.toBe(sent[0]);
  });
});

describe('TradingForm sizing', () => {
  const placed = (calls: { url: string; body: unknown }[]) => calls.filter(isOrder).map((c) => c.body as { quantity: string });
  const orderOk = () => ok({ order: { id: 'o9', status: 'filled', side: 'BUY', symbol: 'BTC-USD', quantity: '0.01', average_fill_price: '50001' } }, 201);
  const fee = () => screen.getByTestId('tf-fee').textContent;

  it('shows what is available for the side: USD for a BUY, the base asset for a SELL', async () => {
    server(orderOk);
    renderForm();
    await waitFor(() => expect(screen.getByTestId('tf-available').textContent).toBe('Available USD: $10,000.00'));
    await userEvent.click(screen.getByRole('button', { name: 'SELL' }));
    expect(screen.getByTestId('tf-available').textContent).toBe('Available BTC: 0.12345679 BTC');
  });

  it('says the balance is unknown when the balances cannot be loaded, and offers no share of it', async () => {
    server(orderOk, undefined, () => fail(503, { code: 'unavailable', message: 'exchange down' }));
    renderForm();
    await waitFor(() => expect(screen.getByTestId('tf-available').textContent).toBe('Available USD: unknown (balances could not be loaded)'));
    expect((screen.getByRole('button', { name: '100%' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("estimates the fee with the server's rate: taker at the ask for a market order, maker for a resting limit", async () => {
    const ratesBalances = { ...balances, fees: { taker_rate: '0.0055', maker_rate: '0.0021' } };
    server(orderOk, undefined, () => ok(ratesBalances));
    renderForm();
    // 0.02 x 50001 x 0.0055 = 5.50011
    await screen.findByText('Est. Fee (0.55% taker)');
    expect(fee()).toBe('$5.50');
    await userEvent.click(screen.getByRole('button', { name: 'Show Advanced' }));
    await userEvent.selectOptions(screen.getByLabelText('Order Type'), 'limit');
    await userEvent.type(screen.getByLabelText('Limit Price'), '40000');
    // 0.02 x 40000 x 0.0021 = 1.68, a limit below the ask rests
    expect(screen.getByText('Est. Fee (0.21% maker)')).toBeTruthy();
    expect(fee()).toBe('$1.68');
  });

  it('says when the exchange does not publish its fee rate', async () => {
    server(orderOk, undefined, () => ok({ balances: balances.balances }));
    renderForm();
    await waitFor(() => expect(fee()).toBe('Not published by the exchange'));
    expect(screen.getByText('Est. Fee')).toBeTruthy();
  });

  it('turns a USD amount into a base quantity at the ask, rounded down to the increment, and sends that', async () => {
    const calls = server(orderOk);
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('0.02'));
    await screen.findByText('$50,000.00');
    await userEvent.click(within(screen.getByRole('group', { name: 'Size in' })).getByRole('button', { name: 'USD' }));
    // 0.02 BTC at the ask (50001) is $1,000.02
    expect((screen.getByLabelText('Amount (USD)') as HTMLInputElement).value).toBe('1000.02');
    await userEvent.clear(screen.getByLabelText('Amount (USD)'));
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '1000');
    // 1000 / 50001 = 0.01999960000799...
    expect(screen.getByTestId('tf-converted').textContent).toBe('Sends 0.0199996 BTC at $50,001.00, rounded down');
    await userEvent.click(screen.getByRole('button', { name: 'BUY BTC-USD' }));
    expect(within(screen.getByTestId('order-confirm')).getByText('Quantity').nextSibling?.textContent).toBe('0.0199996 BTC');
    await confirmOrder();
    await waitFor(() => expect(placed(calls)).toHaveLength(1));
    expect(placed(calls)[0]?.quantity).toBe('0.0199996');
  });

  it('fills 25/50/100% of the available USD net of the fee for a BUY, and of the base asset for a SELL', async () => {
    server(orderOk);
    renderForm();
    await screen.findByText('Est. Fee (0.6% taker)');
    await screen.findByText('$50,000.00');
    const qty = () => (screen.getByLabelText('Quantity') as HTMLInputElement).value;
    // 10000 / (50001 x 1.006) = 0.198803186...: the notional and its fee stay within $10,000
    await userEvent.click(screen.getByRole('button', { name: '100%' }));
    expect(qty()).toBe('0.19880318');
    await userEvent.click(screen.getByRole('button', { name: '50%' }));
    expect(qty()).toBe('0.09940159');
    await userEvent.click(screen.getByRole('button', { name: 'SELL' }));
    await userEvent.click(screen.getByRole('button', { name: '50%' }));
    expect(qty()).toBe('0.06172839'); // half of 0.12345679, rounded down
    await userEvent.click(screen.getByRole('button', { name: '25%' }));
    expect(qty()).toBe('0.03086419');
    await userEvent.click(screen.getByRole('button', { name: '100%' }));
    expect(qty()).toBe('0.12345679');
  });
});
