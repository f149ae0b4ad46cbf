import { describe, expect, it } from 'vitest';
import { rebased } from './components/MarketTab';
import { confidenceClass, coverageNote, usdAxis, correlationLevel, correlationStrength, indexClass, isSevere, money, num, pct, ratio, scaled, signedPct, winRateClass } from './model';

describe('analytics display rules (spec section 9)', () => {
  it('colours confidence and win rate at the spec thresholds', () => {
    expect([0.8, 0.79, 0.6, 0.59].map(confidenceClass).map((c) => c.split('-')[1])).toEqual(['emerald', 'amber', 'amber', 'red']);
    expect([0.6, 0.59, 0.4, 0.39].map(winRateClass).map((c) => c.split('-')[1])).toEqual(['emerald', 'amber', 'amber', 'red']);
    expect(confidenceClass(null)).toBe('');
    expect(indexClass(51)).toContain('emerald');
    expect(indexClass(50)).toContain('red');
  });

  it('labels correlations and stress results', () => {
    expect([0.71, 0.7, 0.31, 0.3, -0.9].map(correlationStrength)).toEqual(['Strong', 'Moderate', 'Moderate', 'Weak', 'Strong']);
    expect([0.81, 0.8, 0.61, 0.6].map(correlationLevel)).toEqual(['High', 'Medium', 'Medium', 'Low']);
    expect([-20, -19.99, '-50.00', null].map(isSevere)).toEqual([true, false, true, false]);
  });

  it('shows a missing figure as a dash, never as 0', () => {
    for (const f of [pct, money, ratio, signedPct]) expect(f(null)).toBe('—');
    expect(num('NaN')).toBeNull();
    expect(num('0')).toBe(0);
    expect(pct(0)).toBe('0.00%');
    expect(scaled('2134000000000', 'T')).toBe('$2.13T');
    expect([-4.13, 1250, 0].map(usdAxis)).toEqual(['-$4.13', '$1,250', '$0.00']);
  });

  it('rebases each price series to 100 at its first close', () => {
    const [s] = rebased({ 'BTC-USD': [{ date: '2026-11-21', close: '80000' }, { date: '2026-11-22', close: '88000' }] });
    expect(s!.points[0]!.value).toBe(100);
    expect(s!.points[1]!.value).toBeCloseTo(110, 10);
  });
});

describe('coverage note', () => {
  it('says when the data covers less than the period asked for, and nothing when it covers it all', () => {
    const to = '2026-05-31T12:00:00Z';
    expect(coverageNote({ requestedFrom: '2026-03-02T12:00:00Z', from: '2026-03-02T12:00:00Z', to, complete: true }, '90d')).toBeNull();
    expect(coverageNote(undefined, '90d')).toBeNull();
    const note = coverageNote({ requestedFrom: '2026-03-02T12:00:00Z', from: '2026-05-28T12:00:00Z', to, complete: false }, '90d');
    expect(note).toMatch(/^Data covers only .+ \(3\.0 days\) of the 90 days asked for\.$/);
    expect(coverageNote({ requestedFrom: '2026-03-02T12:00:00Z', from: null, to, complete: false }, '90d')).toBe('No data recorded in the 90 days asked for.');
  });
});
