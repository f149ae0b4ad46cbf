import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api';
import { reportAnswer } from './connection';
import { newClientOrderId, orderFailureMessage, retryable, sendWithRetry } from './retry';

afterEach(() => {
  vi.unstubAllGlobals();
  reportAnswer();
});

const noWait = () => Promise.resolve();
const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('sendWithRetry', () => {
  it('repeats an order with the same client order id after a network error, a 502 and a 503, then takes the answer', async () => {
    const id = newClientOrderId();
    const bodies: string[] = [];
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.resolve(new Response('<html>Bad Gateway</html>', { status: 502 })),
      () => Promise.resolve(envelope(503, { success: false, error: { code: 'unavailable', message: 'No instance running the trading engine answered; retry' } })),
      () => Promise.resolve(envelope(200, { success: true, data: { order: { id: 'o-1', client_order_id: id } } })),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        bodies.push(String(init.body));
        return answers[bodies.length - 1]!();
      }),
    );
    const retries: number[] = [];
    const res = await sendWithRetry(() => apiRequest<{ order: { id: string } }>('POST', '/trading/execute', { symbol: 'BTC-USD', action: 'BUY', quantity: '0.01', client_order_id: id }), {
      sleep: noWait,
      onRetry: (n) => retries.push(n),
    });
    expect(res.order.id).toBe('o-1');
    expect(retries).toEqual([1, 2, 3]);
    expect(bodies).toHaveLength(4);
    for (const b of bodies) expect(JSON.parse(b).client_order_id).toBe(id);
  });

  it('does not repeat a refusal (422) or a bad request (400)', async () => {
    for (const status of [400, 409, 422, 500]) {
      const send = vi.fn(() => Promise.reject(new ApiError(status, 'x', 'no')));
      await expect(sendWithRetry(send, { sleep: noWait })).rejects.toMatchObject({ status });
      expect(send).toHaveBeenCalledTimes(1);
    }
  });

  it('gives up after three repeats and says the outcome of an unanswered order is unknown', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(0, 'network', 'Cannot reach the server')));
    const err = await sendWithRetry(send, { sleep: noWait }).catch((e: unknown) => e);
    expect(send).toHaveBeenCalledTimes(4);
    expect(orderFailureMessage(err, 'cid-1', 'Failed to execute trade')).toBe(
      'The server did not answer, so it is not known whether the order was placed (client order id cid-1). Check Orders and Trade History before placing it again.',
    );
    expect(orderFailureMessage(new ApiError(503, 'unavailable', 'Not executed; retry'), 'cid-1', 'f')).toBe('Not executed; retry');
  });

  it('knows which failures are worth repeating', () => {
    expect([0, 502, 503, 504].map((s) => retryable(new ApiError(s, 'x', 'y')))).toEqual([true, true, true, true]);
    expect([400, 401, 409, 422, 500].map((s) => retryable(new ApiError(s, 'x', 'y')))).toEqual([false, false, false, false, false]);
    expect(newClientOrderId()).not.toBe(newClientOrderId());
  });
});
