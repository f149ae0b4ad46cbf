import { afterEach, describe, expect, it, vi } from 'vitest';
import { cancelOrder } from './api';
import type { Position, Product, Trade } from '@/lib/types';
import { DEFAULT_PREFS, setDisplayPrefs } from '@/lib/format';
import { closeQuantityValid } from './components/PositionManager';
import { csvFileName, filterTrades, strategyLabel, tradesToCSV } from './history';
import { riskLevel, riskWarning } from './risk';
import { healthBadge } from './status';
import { isMultipleOf, MSG, plainDecimal, validateModify, validateTrade } from './validate';

const base = { symbol: 'BTC-USD', side: 'BUY' as const, orderType: 'market' as const, quantity: '0.01', price: '', strategy: '' };

describe('validateTrade', () => {
  it('uses the spec messages', () => {
    expect(validateTrade({ ...base, symbol: '' })).toEqual({ symbol: MSG.symbol });
    expect(validateTrade({ ...base, quantity: '0' })).toEqual({ quantity: 'Valid quantity is required' });
    expect(validateTrade({ ...base, quantity: 'abc' })).toEqual({ quantity: 'Valid quantity is required' });
    expect(validateTrade({ ...base, orderType: 'limit' })).toEqual({ price: 'Valid price is required for limit orders' });
    expect(validateTrade({ ...base, orderType: 'stop_loss', price: '-1' })).toEqual({ price: 'Valid stop price is required for stop orders' });
    expect(validateTrade({ ...base, orderType: 'limit', price: '100' })).toEqual({});
  });
});

const product = (id: string, price_increment: string, base_min_size = '0.00001'): Product => ({
  product_id: id,
  base_currency: id.split('-')[0]!,
  quote_currency: 'USD',
  price_increment,
  base_increment: '0.00000001',
  base_min_size,
  status: 'online',
  price: '1',
});
const BTC = product('BTC-USD', '0.01');
const ADA = product('ADA-USD', '0.0001', '1');

describe('increments', () => {
  it('compares decimals exactly', () => {
    expect(isMultipleOf('0.4512', '0.0001')).toBe(true);
    expect(isMultipleOf('0.4512', '0.01')).toBe(false);
    expect(isMultipleOf('0.3', '0.1')).toBe(true); // 0.3 / 0.1 is not 3 in binary floating point
    expect(isMultipleOf('60000.10', '0.01')).toBe(true);
    expect(isMultipleOf('60000.105', '0.01')).toBe(false);
    expect(isMultipleOf('1e3', '0.01')).toBe(true);
    expect(isMultipleOf('0.000000015', '0.00000001')).toBe(false);
    expect(isMultipleOf('abc', '0.01')).toBe(false);
    expect(plainDecimal('0.01000000')).toBe('0.01');
    expect(plainDecimal('10')).toBe('10');
  });

  it('accepts an ADA price of 0.4512 and refuses it for BTC', () => {
    const limit = { ...base, orderType: 'limit' as const, price: '0.4512' };
    expect(validateTrade({ ...limit, symbol: 'ADA-USD', quantity: '10' }, ADA)).toEqual({});
    expect(validateTrade(limit, BTC)).toEqual({ price: 'Price must be a multiple of 0.01' });
    expect(validateTrade({ ...limit, orderType: 'stop_loss' }, BTC)).toEqual({ price: 'Price must be a multiple of 0.01' });
    expect(validateTrade({ ...limit, symbol: 'ADA-USD', quantity: '10', price: '0.45125' }, ADA)).toEqual({ price: 'Price must be a multiple of 0.0001' });
  });

  it('checks quantity against the size increment and the minimum', () => {
    expect(validateTrade({ ...base, quantity: '0.010000005' }, BTC)).toEqual({ quantity: 'Quantity must be a multiple of 0.00000001' });
    expect(validateTrade({ ...base, quantity: '0.000001' }, BTC)).toEqual({ quantity: 'Quantity must be at least 0.00001' });
    expect(validateTrade({ ...base, quantity: '0.00001' }, BTC)).toEqual({});
    expect(validateTrade({ ...base, symbol: 'ADA-USD', quantity: '0.5' }, ADA)).toEqual({ quantity: 'Quantity must be at least 1' });
  });

  it('does not block on increments until the products load', () => {
    expect(validateTrade({ ...base, orderType: 'limit', price: '0.4512', quantity: '0.000000015' })).toEqual({});
  });

  it('applies the same rules to a modified order, leaving empty fields alone', () => {
    expect(validateModify('', '0.4512', ADA)).toEqual({});
    expect(validateModify('', '0.4512', BTC)).toEqual({ price: 'Price must be a multiple of 0.01' });
    expect(validateModify('0.5', '', ADA)).toEqual({ quantity: 'Quantity must be at least 1' });
    expect(validateModify('-1', '0', BTC)).toEqual({ quantity: MSG.quantity, price: MSG.price });
    expect(validateModify('', '0.4512')).toEqual({});
  });
});

const pos = { symbol: 'BTC-USD', quantity: '0.5' } as Position;

describe('close position quantity', () => {
  it('accepts (0, |qty|] only', () => {
    expect(closeQuantityValid('0.5', pos)).toBe(true);
    expect(closeQuantityValid('0.1', pos)).toBe(true);
    expect(closeQuantityValid('0', pos)).toBe(false);
    expect(closeQuantityValid('0.6', pos)).toBe(false);
    expect(closeQuantityValid('', pos)).toBe(false);
  });
});

const t = (over: Partial<Trade>): Trade => ({
  id: 'id',
  order_id: 'id',
  order_type: 'market',
  symbol: 'BTC-USD',
  side: 'BUY',
  quantity: '0.01',
  price: '50000',
  total_value: '500',
  fee: '3',
  status: 'executed',
  strategy: '',
  timestamp: '2026-05-10T12:00:00Z',
  liquidity: 'taker',
  protective: false,
  realized_pnl: null,
  ...over,
});

describe('trade history', () => {
  const now = new Date('2026-05-10T18:00:00Z');
  const trades = [t({ id: 'a' }), t({ id: 'b', side: 'SELL', timestamp: '2026-05-05T00:00:00Z', strategy: 'rsi' }), t({ id: 'c', timestamp: '2026-03-01T00:00:00Z' })];
  it('filters by side, status, time and search', () => {
    expect(filterTrades(trades, { search: '', status: '', side: 'SELL', time: 'all' }, now).map((x) => x.id)).toEqual(['b']);
    expect(filterTrades(trades, { search: '', status: 'pending', side: '', time: 'all' }, now).map((x) => x.id)).toEqual([]);
    expect(filterTrades(trades, { search: '', status: '', side: '', time: 'week' }, now).map((x) => x.id)).toEqual(['a', 'b']);
    expect(filterTrades(trades, { search: '', status: '', side: '', time: 'month' }, now).map((x) => x.id)).toEqual(['a', 'b']);
    expect(filterTrades(trades, { search: 'manual', status: '', side: '', time: 'all' }, now).map((x) => x.id)).toEqual(['a', 'c']);
  });
  it('exports the spec columns first, then order type, order id and realized P&L, with exact amounts', () => {
    const csv = tradesToCSV([t({ strategy: 'a,b' }), t({ id: 'x', order_id: 'o-2', side: 'SELL', order_type: 'stop_loss', protective: true, realized_pnl: '-1.25' })]);
    expect(csv).toBe(
      'Date,Symbol,Side,Quantity,Price,Total,Fee,Status,Strategy,Order Type,Order ID,Realized P&L\r\n' +
        '2026-05-10T12:00:00Z,BTC-USD,BUY,0.01,50000,500,3,executed,"a,b",Market,id,\r\n' +
        '2026-05-10T12:00:00Z,BTC-USD,SELL,0.01,50000,500,3,executed,Manual,Stop-Loss (protective),o-2,-1.25\r\n',
    );
    expect(csvFileName(now)).toBe('trade-history-2026-05-10.csv');
    expect(strategyLabel('')).toBe('Manual');
  });
  it('neutralises formula cells in the export but keeps negative amounts as numbers', () => {
    const csv = tradesToCSV([t({ strategy: '=cmd|calc', fee: '-0.25' })]);
    expect(csv.split('\r\n')[1]).toBe("2026-05-10T12:00:00Z,BTC-USD,BUY,0.01,50000,500,-0.25,executed,'=cmd|calc,Market,id,");
  });
  it('stays machine-readable whatever the display settings: no grouping, a point for decimals', () => {
    setDisplayPrefs({ ...DEFAULT_PREFS, separator: '.', decimals: 4, dateFormat: 'DD/MM/YYYY' });
    const csv = tradesToCSV([t({ quantity: '1234.5', price: '64250.10', total_value: '79316626.95' })]);
    setDisplayPrefs(DEFAULT_PREFS);
    expect(csv.split('\r\n')[1]).toBe('2026-05-10T12:00:00Z,BTC-USD,BUY,1234.5,64250.10,79316626.95,3,executed,Manual,Market,id,');
  });
});

describe('risk display rules', () => {
  it('grades the largest position share', () => {
    expect(riskLevel(51)).toBe('High');
    expect(riskLevel(50)).toBe('Medium');
    expect(riskLevel(30)).toBe('Low');
    expect(riskWarning(10, 81, 100)).toBe(true);
    expect(riskWarning(10, 80, 100)).toBe(false);
  });
});

describe('portfolio value series', () => {
  it('keeps the last value per second, ascending', async () => {
    const { toSeries } = await import('./components/PortfolioValueChart');
    expect(
      toSeries([
        { timestamp: '2026-05-01T00:01:00.500Z', value: '101', cash: '0' },
        { timestamp: '2026-05-01T00:00:00Z', value: '100', cash: '0' },
        { timestamp: '2026-05-01T00:01:00.900Z', value: '102', cash: '0' },
      ]),
    ).toEqual([
      { time: 1777593600, value: 100 },
      { time: 1777593660, value: 102 },
    ]);
  });
});

describe('4-hour candles from hourly ones', () => {
  it('groups on UTC 4-hour boundaries', async () => {
    const { groupCandles } = await import('./api');
    const h = (hour: number, o: string, hi: string, lo: string, c: string) => ({ timestamp: `2026-05-01T${String(hour).padStart(2, '0')}:00:00Z`, open: o, high: hi, low: lo, close: c, volume: '1' });
    const out = groupCandles([h(3, '9', '10', '8', '9'), h(4, '10', '12', '9', '11'), h(5, '11', '15', '10', '14'), h(7, '14', '14', '7', '8'), h(8, '8', '9', '8', '9')], 4, 3_600_000);
    expect(out.map((c) => [c.timestamp, c.open, c.high, c.low, c.close, c.volume])).toEqual([
      ['2026-05-01T00:00:00.000Z', '9', '10', '8', '9', '1'],
      ['2026-05-01T04:00:00.000Z', '10', '15', '7', '8', '3'],
      ['2026-05-01T08:00:00.000Z', '8', '9', '8', '9', '1'],
    ]);
  });
});

describe('dashboard health badge', () => {
  it('says the engine is halted instead of System Healthy, and nothing is known while stale', () => {
    expect(healthBadge({ stale: false, halted: false, healthy: true }).text).toBe('System Healthy');
    expect(healthBadge({ stale: false, halted: true, healthy: true }).text).toBe('Trading Halted');
    expect(healthBadge({ stale: true, halted: false, healthy: true }).text).toBe('Status Unknown');
    expect(healthBadge({ stale: false, halted: false, healthy: false }).text).toBe('System Issues');
  });
});

describe('cancel retried after no answer', () => {
  afterEach(() => vi.unstubAllGlobals());
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it('reads a 409 on the repeat as done when the first attempt did cancel the order', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push(`${init.method} ${url}`);
        if (init.method === 'DELETE' && seen.length === 1) throw new TypeError('Failed to fetch');
        if (init.method === 'DELETE') return json(409, { success: false, error: { code: 'conflict', message: 'Order cannot be cancelled in status cancelled' } });
        return json(200, { success: true, data: { orders: [{ id: 'o-1', status: 'cancelled' }] } });
      }),
    );
    const o = await cancelOrder('o-1', { sleep: () => Promise.resolve() });
    expect(o).toMatchObject({ id: 'o-1', status: 'cancelled' });
    expect(seen).toEqual(['DELETE /api/trading/orders/o-1', 'DELETE /api/trading/orders/o-1', 'GET /api/trading/orders?status_filter=cancelled&limit=100']);
  });

  it('passes on a 409 at the first attempt (the order had filled)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(409, { success: false, error: { code: 'conflict', message: 'Order cannot be cancelled in status filled' } })));
    await expect(cancelOrder('o-2', { sleep: () => Promise.resolve() })).rejects.toMatchObject({ status: 409, message: 'Order cannot be cancelled in status filled' });
  });
});
