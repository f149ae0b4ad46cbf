import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFS,
  formatCompact,
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  formatQty,
  formatShare,
  formatSignedMoney,
  fractionAxis,
  groupNumber,
  moneyAxis,
  setDisplayPrefs,
  setPriceIncrements,
  timeLabel,
  timeTick,
} from './format';

afterEach(() => {
  setDisplayPrefs(DEFAULT_PREFS);
  setPriceIncrements([]);
});

const withSeparator = (separator: string) => setDisplayPrefs({ ...DEFAULT_PREFS, separator });

describe('numbers follow the thousands separator', () => {
  it('groups numbers with the chosen separator and decimal places', () => {
    expect(groupNumber(1234567.891, 2, ',')).toBe('1,234,567.89');
    expect(groupNumber(1234567.891, 0, '.')).toBe('1.234.568');
    expect(groupNumber(1234.5, 2, '.')).toBe('1.234,50');
    expect(groupNumber(-1234.5, 4, ' ')).toBe('-1 234.5000');
  });

  it.each([
    [',', '$2,344.36', '$9,737.65', '0.12345678', '1,234.5', '+1.50%', '62.5%', '1,234'],
    ['.', '$2.344,36', '$9.737,65', '0,12345678', '1.234,5', '+1,50%', '62,5%', '1.234'],
    [' ', '$2 344.36', '$9 737.65', '0.12345678', '1 234.5', '+1.50%', '62.5%', '1 234'],
  ])('separator %j: price, money, quantity, percent and count agree on one screen', (sep, price, money, smallQty, qty, change, share, count) => {
    withSeparator(sep);
    expect(formatPrice('2344.36')).toBe(price);
    expect(formatMoney('9737.65')).toBe(money);
    expect(formatQty('0.12345678')).toBe(smallQty);
    expect(formatQty('1234.50000000')).toBe(qty);
    expect(formatPercent('1.5')).toBe(change);
    expect(formatShare(62.5)).toBe(share);
    expect(formatCount(1234)).toBe(count);
  });

  it('money keeps the chosen decimal places; prices and quantities do not', () => {
    setDisplayPrefs({ ...DEFAULT_PREFS, decimals: 4, separator: '.' });
    expect(formatMoney('9737.65')).toBe('$9.737,6500');
    expect(formatPrice('9737.65')).toBe('$9.737,65');
    expect(formatQty('2')).toBe('2');
  });

  it('signs negative figures before the unit', () => {
    withSeparator('.');
    expect(formatMoney('-1234.5')).toBe('-$1.234,50');
    expect(formatSignedMoney('-4.1')).toBe('-$4,10');
    expect(formatSignedMoney('12')).toBe('+$12,00');
    expect(formatPrice(-0.5)).toBe('-$0,5000');
    expect(formatQty('-0.25')).toBe('-0,25');
    expect(formatPercent('-2.345', 1)).toBe('-2,3%');
    expect(formatNumber(-1234.567, 2)).toBe('-1.234,57');
  });

  it('shows zero plainly', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatSignedMoney(0)).toBe('$0.00');
    expect(formatPrice('0')).toBe('$0.00');
    expect(formatQty('0.00000000')).toBe('0');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatShare(0)).toBe('0.0%');
    expect(formatCount(null)).toBe('0');
  });

  it('never shows a negative zero', () => {
    expect(formatMoney('-0.001')).toBe('$0.00');
    expect(formatSignedMoney('-0.004')).toBe('$0.00');
    expect(formatPercent(-0.004)).toBe('0.00%');
    expect(formatShare(-0.04)).toBe('0.0%');
    expect(formatNumber(-0.0001, 2)).toBe('0.00');
    expect(formatQty('-0.000000001')).toBe('0');
    expect(groupNumber(-0.001, 2, '.')).toBe('0,00');
    expect(moneyAxis(-0.001)).toBe('$0.00');
  });

  it('shortens large figures with the decimal mark of the separator', () => {
    expect(formatCompact(1_530_000)).toBe('1.53M');
    expect(formatCompact(2_134_000_000_000)).toBe('2.13T');
    expect(formatCompact(950)).toBe('950');
    withSeparator('.');
    expect(formatCompact(1_500_000, 1)).toBe('1,5M');
  });
});

describe('prices take the places their market needs', () => {
  it('follows the market price increment once the products are known', () => {
    setPriceIncrements([
      { product_id: 'BTC-USD', price_increment: '0.01' },
      { product_id: 'ADA-USD', price_increment: '0.0001' },
    ]);
    expect(formatPrice('0.45127', 'ADA-USD')).toBe('$0.4513');
    expect(formatPrice('1.2', 'ADA-USD')).toBe('$1.2000');
    expect(formatPrice('0.5', 'BTC-USD')).toBe('$0.50'); // a spread of half a dollar
    expect(formatPrice('64250.1', 'BTC-USD')).toBe('$64,250.10');
  });

  it('shows small prices in hundredths of a cent before the products load', () => {
    expect(formatPrice('0.4512')).toBe('$0.4512');
    expect(formatPrice('0.4512', 'ADA-USD')).toBe('$0.4512');
    expect(formatPrice('3.5')).toBe('$3.50');
    withSeparator('.');
    expect(formatPrice('0.4512', 'ADA-USD')).toBe('$0,4512');
  });
});

describe('display currency', () => {
  it('converts account amounts to BTC or ETH at the live price', () => {
    expect(formatMoney('99995.87')).toBe('$99,995.87');
    expect(formatSignedMoney('-4.1')).toBe('-$4.10');
    setDisplayPrefs({ ...DEFAULT_PREFS, currency: 'BTC', rate: 1 / 50000 });
    expect(formatMoney('100000')).toBe('₿2.000000');
    expect(formatSignedMoney('-50000')).toBe('-₿1.000000');
    expect(moneyAxis(25000)).toBe('₿0.5');
    expect(formatPrice('64000')).toBe('$64,000.00'); // a market price stays in its quote currency
    setDisplayPrefs({ ...DEFAULT_PREFS, decimals: 0, separator: ' ' });
    expect(formatMoney('100000.4')).toBe('$100 000');
  });

  it('labels amounts "$" when the currency has no rate (EUR, GBP fall back to USD)', () => {
    setDisplayPrefs({ ...DEFAULT_PREFS, currency: 'EUR', rate: 0 });
    expect(formatMoney('10')).toBe('$10.00');
    expect(moneyAxis(-10)).toBe('-$10.00');
  });
});

describe('dates and times', () => {
  it('formats date and time as chosen, in the chosen time zone', () => {
    const iso = '2026-05-01T15:04:05Z';
    expect(formatDateTime(iso)).toBe('05/01/2026, 15:04:05');
    expect(formatDateTime(iso, { ...DEFAULT_PREFS, dateFormat: 'YYYY-MM-DD', timeFormat: '12h' })).toBe('2026-05-01, 03:04:05 PM');
    expect(formatDateTime(iso, { ...DEFAULT_PREFS, dateFormat: 'DD/MM/YYYY', timezone: 'Asia/Tokyo' })).toBe('02/05/2026, 00:04:05');
    expect(formatDateTime(null)).toBe('—');
  });

  it('shows a bare day as that day in every zone, and a moment as its day in the chosen zone', () => {
    const ny = { ...DEFAULT_PREFS, dateFormat: 'DD/MM/YYYY', timezone: 'America/New_York' };
    expect(formatDate('2026-05-01', ny)).toBe('01/05/2026');
    expect(formatDate('2026-05-01T02:00:00Z', ny)).toBe('30/04/2026');
    expect(formatDate('', ny)).toBe('—');
  });
});

describe('chart axes', () => {
  it('labels money and fractions like the rest of the screen', () => {
    expect([-4.13, 1250, 0].map(moneyAxis)).toEqual(['-$4.13', '$1,250', '$0.00']);
    withSeparator('.');
    expect(moneyAxis(1250)).toBe('$1.250');
    expect(fractionAxis(1)(-0.125)).toBe('-12,5%');
  });

  it('labels time ticks in the chosen date order, clock and zone', () => {
    const t = Date.parse('2026-05-01T15:04:05Z') / 1000;
    const eu = { ...DEFAULT_PREFS, dateFormat: 'DD/MM/YYYY', timeFormat: '12h', timezone: 'Asia/Tokyo' };
    expect(timeTick(t, 'day', eu)).toBe('02/05');
    expect(timeTick(t, 'time', eu)).toBe('12:04 AM');
    expect(timeTick(t, 'month', { ...DEFAULT_PREFS, dateFormat: 'YYYY-MM-DD' })).toBe('2026-05');
    expect(timeTick(t, 'year')).toBe('2026');
    expect(timeTick(t, 'seconds')).toBe('15:04:05');
    expect(timeLabel(t, true, eu)).toBe('02/05/2026 12:04 AM');
    expect(timeLabel(Date.parse('2026-05-01T00:00:00Z') / 1000, false, eu)).toBe('01/05/2026');
  });
});
