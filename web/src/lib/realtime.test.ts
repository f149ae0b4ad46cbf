import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyToCache, MAX_ATTEMPTS_MESSAGE, MAX_RECONNECT_ATTEMPTS, RealtimeClient, RECONNECT_DELAY_MS } from './realtime';

/** A scriptable stand-in for the browser's WebSocket. */
class FakeSocket {
  constructor(readonly url: string) {}
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  send(s: string) {
    this.sent.push(s);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

describe('RealtimeClient', () => {
  let sockets: FakeSocket[];
  let client: RealtimeClient;
  let tickets: number;
  let ticketFails: boolean;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    sockets = [];
    tickets = 0;
    ticketFails = false;
    client = new RealtimeClient(
      () => {
        tickets++;
        return ticketFails ? Promise.reject(new Error('network')) : Promise.resolve(`ws://x/api/ws?ticket=t${tickets}`);
      },
      (u) => {
        const s = new FakeSocket(u);
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('subscribes on open and again after a reconnect 5 s later', async () => {
    client.subscribe(['ticker'], ['BTC-USD']);
    expect(console.warn).toHaveBeenCalled(); // not connected yet
    client.connect();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual(['{"action":"subscribe","channels":["ticker"],"symbols":["BTC-USD"]}']);
    sockets[0]!.drop();
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS - 1);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual(sockets[0]!.sent);
    expect(client.state).toBe('connected');
  });

  it('gives up after 10 failed attempts with the spec message', async () => {
    client.connect();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i++) {
      sockets[i]!.drop();
      await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    }
    expect(sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS + 1);
    sockets[MAX_RECONNECT_ATTEMPTS]!.drop();
    expect(client.state).toBe('failed');
    expect(client.error).toBe(MAX_ATTEMPTS_MESSAGE);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 3);
    expect(sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS + 1);
  });

  it('does not reconnect after disconnect', async () => {
    client.connect();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.open();
    client.disconnect();
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 2);
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('closed');
  });

  it('fetches a fresh ticket for every connection, and retries when it cannot', async () => {
    client.connect();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.open();
    sockets[0]!.drop();
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    expect(tickets).toBe(2);
    expect(sockets.map((s) => s.url)).toEqual(['ws://x/api/ws?ticket=t1', 'ws://x/api/ws?ticket=t2']);
    ticketFails = true;
    sockets[1]!.drop();
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    expect(tickets).toBe(3);
    expect(sockets).toHaveLength(2); // no socket without a ticket
    expect(client.state).toBe('reconnecting');
    ticketFails = false;
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    expect(sockets).toHaveLength(3);
  });

  it('drops a ticket that arrives after disconnect', async () => {
    client.connect();
    client.disconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(0);
  });
});

describe('applyToCache', () => {
  it('writes tickers and refreshes trading queries on a trade update', () => {
    const qc = new QueryClient();
    applyToCache(qc, { type: 'market_data', channel: 'ticker', data: { symbol: 'BTC-USD', price: '1' }, timestamp: '' });
    expect(qc.getQueryData(['ticker', 'BTC-USD'])).toMatchObject({ price: '1' });
    const spy = vi.spyOn(qc, 'invalidateQueries');
    applyToCache(qc, { type: 'trade_update', channel: 'trades', data: { order: { id: 'o1' } }, timestamp: '' });
    expect(spy).toHaveBeenCalledWith({ queryKey: ['positions'] });
    expect(spy).toHaveBeenCalledWith({ queryKey: ['orders'] });
  });
});
