import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api';
import { connectionLostAt, reconnectIfGaveUp, reportAnswer, reportLost } from './connection';

afterEach(() => {
  vi.unstubAllGlobals();
  reportAnswer();
});

describe('connection state from API calls', () => {
  it('is lost on a network error and back on the next answer, an error envelope included', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await apiRequest('GET', '/system/health').catch(() => undefined);
    expect(connectionLostAt()).not.toBeNull();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ success: false, error: { code: 'unavailable', message: 'down' } }), { status: 503 })));
    await apiRequest('GET', '/system/health').catch(() => undefined);
    expect(connectionLostAt()).toBeNull();
  });

  it("is lost on a gateway's 502/504 without Kestrel's envelope", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502 })));
    await apiRequest('GET', '/system/health').catch(() => undefined);
    expect(connectionLostAt()).not.toBeNull();
  });
});

describe('realtime after an outage', () => {
  it('reconnects a socket that gave up once the server answers again, and leaves a working one alone', () => {
    reportLost();
    const gaveUp = { state: 'failed', connect: vi.fn() };
    reconnectIfGaveUp(gaveUp);
    expect(gaveUp.connect).not.toHaveBeenCalled(); // still down: nothing to reconnect to
    reportAnswer();
    reconnectIfGaveUp(gaveUp);
    expect(gaveUp.connect).toHaveBeenCalledTimes(1);
    const live = { state: 'connected', connect: vi.fn() };
    reconnectIfGaveUp(live);
    expect(live.connect).not.toHaveBeenCalled();
  });
});
