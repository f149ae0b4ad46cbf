import { describe, expect, it } from 'vitest';
import { timeframeLabel } from './timeframe';

describe('timeframeLabel', () => {
  it('reads the exchange granularities and the chart setting alike', () => {
    expect(timeframeLabel('ONE_HOUR')).toBe('1 hour');
    expect(timeframeLabel('FIFTEEN_MINUTE')).toBe('15 minutes');
    expect(timeframeLabel('ONE_DAY')).toBe('1 day');
    expect(timeframeLabel('4h')).toBe('4 hours');
    expect(timeframeLabel('1m')).toBe('1 minute');
  });

  it('shows an unknown value as it came and nothing for none', () => {
    expect(timeframeLabel('TEN_YEAR')).toBe('TEN_YEAR');
    expect(timeframeLabel(undefined)).toBe('');
  });
});
