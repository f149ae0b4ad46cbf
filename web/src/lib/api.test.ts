import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api';
import { getToken, setToken } from './token';

function respond(status: number, body: unknown) {
  return vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => vi.unstubAllGlobals());

describe('apiRequest', () => {
  it('returns data of a success envelope and sends the bearer token', async () => {
    setToken('tok');
    const fetchMock = respond(200, { success: true, data: { n: 1 } });
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('GET', '/x')).resolves.toEqual({ n: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect((init as RequestInit).headers).toMatchObject({ Authorization: 'Bearer tok' });
  });

  it('turns an error envelope into ApiError with field errors', async () => {
    vi.stubGlobal('fetch', respond(400, { success: false, error: { code: 'invalid', message: 'Symbol is required', fields: { symbol: 'Symbol is required' } } }));
    const err = await apiRequest('POST', '/trading/execute', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'invalid', message: 'Symbol is required', fields: { symbol: 'Symbol is required' } });
  });

  it('clears the token and goes to /login on 401, to come back after signing in', async () => {
    setToken('expired');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/trading', assign });
    vi.stubGlobal('fetch', respond(401, { success: false, error: { code: 'unauthorized', message: 'Authentication required' } }));
    await expect(apiRequest('GET', '/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(assign).toHaveBeenCalledWith('/login?next=%2Ftrading');
  });
});
