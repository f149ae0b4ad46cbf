import { describe, expect, it } from 'vitest';
import { loginFor, returnPath } from './returnTo';

describe('returnPath', () => {
  it('follows a path inside the app, query and hash kept', () => {
    expect(returnPath('/trading/orders')).toBe('/trading/orders');
    expect(returnPath('/analytics?symbol=ETH-USD#chart')).toBe('/analytics?symbol=ETH-USD#chart');
  });

  it('never leaves the app (no open redirect)', () => {
    for (const bad of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/\t/evil.example', 'trading', '', null, undefined, 42, { from: '/x' }]) {
      expect(returnPath(bad)).toBe('/dashboard');
    }
  });

  it('does not come back to the sign-in screens', () => {
    expect(returnPath('/login')).toBe('/dashboard');
    expect(returnPath('/register?x=1')).toBe('/dashboard');
  });

  it('builds the /login address that carries the path', () => {
    expect(loginFor('/trading/orders')).toBe('/login?next=%2Ftrading%2Forders');
    expect(loginFor('/login')).toBe('/login');
  });
});
