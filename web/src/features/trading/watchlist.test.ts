import { describe, expect, it } from 'vitest';
import { dayChange, staleNote } from './watchlist';

describe('watchlist figures', () => {
  it('gives the 24-hour change of the live price against the price 24 hours ago', () => {
    expect(dayChange('2400', '2500')).toEqual({ amount: -100, percent: -4 });
    expect(dayChange('2400', undefined)).toBeNull();
    expect(dayChange(undefined, '2500')).toBeNull();
  });

  it('says why prices are only last known: no server, a late feed or none yet', () => {
    expect(staleNote(null, 'healthy', 1)).toBeNull();
    expect(staleNote(Date.parse('2026-05-10T12:31:00Z'), 'healthy', 1)).toBe('Last known prices: no answer from the server since 05/10/2026, 12:31:00.');
    expect(staleNote(null, 'degraded', 42.4)).toBe('Last known prices: the market feed is late (last price 42 s ago).');
    expect(staleNote(null, 'degraded', -1)).toBe('Last known prices: no price from the market feed yet.');
  });
});
