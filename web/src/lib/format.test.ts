import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, formatDateTime, formatMoney, formatSignedMoney, groupNumber, setDisplayPrefs } from './format';

afterEach(() => setDisplayPrefs(DEFAULT_PREFS));

describe('display settings', () => {
  it('groups numbers with the chosen separator and decimal places', () => {
    expect(groupNumber(1234567.891, 2, ',')).toBe('1,234,567.89');
    expect(groupNumber(1234567.891, 0, '.')).toBe('1.234.568');
    expect(groupNumber(1234.5, 2, '.')).toBe('1.234,50');
    expect(groupNumber(-1234.5, 4, ' ')).toBe('-1 234.5000');
  });

  it('shows account amounts in the display currency', () => {
    expect(formatMoney('99995.87')).toBe('$99,995.87');
    expect(formatSignedMoney('-4.1')).toBe('-$4.10');
    setDisplayPrefs({ ...DEFAULT_PREFS, currency: 'BTC', rate: 1 / 50000 });
    expect(formatMoney('100000')).toBe('₿2.000000');
    setDisplayPrefs({ ...DEFAULT_PREFS, decimals: 0, separator: ' ' });
    expect(formatMoney('100000.4')).toBe('$100 000');
  });

  it('formats date and time as chosen, in the chosen time zone', () => {
    const iso = '2026-05-01T15:04:05Z';
    expect(formatDateTime(iso)).toBe('05/01/2026, 15:04:05');
    expect(formatDateTime(iso, { ...DEFAULT_PREFS, dateFormat: 'YYYY-MM-DD', timeFormat: '12h' })).toBe('2026-05-01, 03:04:05 PM');
    expect(formatDateTime(iso, { ...DEFAULT_PREFS, dateFormat: 'DD/MM/YYYY', timezone: 'Asia/Tokyo' })).toBe('02/05/2026, 00:04:05');
    expect(formatDateTime(null)).toBe('—');
  });
});

describe('percentages', () => {
  it('signs gains and never shows a negative zero', async () => {
    const { formatPercent } = await import('./format');
    expect(formatPercent('1.5')).toBe('+1.50%');
    expect(formatPercent(-0.004)).toBe('0.00%');
    expect(formatPercent('-2.345', 1)).toBe('-2.3%');
  });
});
