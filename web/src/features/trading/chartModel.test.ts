import { describe, expect, it } from 'vitest';
import type { Position, Trade } from '@/lib/types';
import { fillReason, liveBar, positionLevels, tradeMarkers, viewFromQuery, widenRange } from './chartModel';

const fill = (over: Partial<Trade>): Trade => ({
  id: 'f1',
  order_id: 'o1',
  symbol: 'ETH-USD',
  side: 'BUY',
  order_type: 'market',
  quantity: '0.5',
  price: '2400',
  total_value: '1200',
  fee: '1.2',
  status: 'executed',
  strategy: 'manual',
  timestamp: '2026-05-10T12:30:00Z',
  liquidity: 'taker',
  protective: false,
  realized_pnl: null,
  ...over,
});

const position = (over: Partial<Position>): Position => ({
  symbol: 'ETH-USD',
  quantity: '0.5',
  avg_price: '2400.5',
  current_price: '2410',
  unrealized_pnl: '4.75',
  realized_pnl: '0',
  current_value: '1205',
  pnl_percentage: '0.4',
  protection: [],
  ...over,
});

const at = (iso: string) => Date.parse(iso) / 1000;

describe('viewFromQuery', () => {
  // As the server lists them: alphabetically.
  const listed = ['ADA-USD', 'BTC-USD', 'ETH-USD', 'SOL-USD'];
  it('reads a known symbol and timeframe from the link', () => {
    expect(viewFromQuery(new URLSearchParams('symbol=ETH-USD&tf=15m'), '1h', listed)).toEqual({ symbol: 'ETH-USD', tf: '15m' });
  });
  it('falls back to BTC-USD (when listed) and the settings timeframe for unknown values', () => {
    expect(viewFromQuery(new URLSearchParams('symbol=DOGE-USD&tf=3h'), '4h', listed)).toEqual({ symbol: 'BTC-USD', tf: '4h' });
    expect(viewFromQuery(new URLSearchParams(''), 'weekly', listed)).toEqual({ symbol: 'BTC-USD', tf: '1h' });
  });
  it('falls back to the first listed market when BTC-USD is not listed', () => {
    expect(viewFromQuery(new URLSearchParams(''), '1h', ['ETH-EUR', 'SOL-EUR'])).toEqual({ symbol: 'ETH-EUR', tf: '1h' });
  });
  it("takes the link's symbol as it is while the symbols load", () => {
    expect(viewFromQuery(new URLSearchParams('symbol=sol-usd'), '1h', [])).toEqual({ symbol: 'SOL-USD', tf: '1h' });
    expect(viewFromQuery(new URLSearchParams(''), '1h', [])).toEqual({ symbol: 'BTC-USD', tf: '1h' });
  });
});

describe('fill markers', () => {
  it('names the exit that closed a position by a stop, a trailing stop or a take-profit', () => {
    expect(fillReason({ order_type: 'market', protective: false })).toBe('');
    expect(fillReason({ order_type: 'limit', protective: false })).toBe('');
    expect(fillReason({ order_type: 'limit', protective: true })).toBe('take_profit');
    expect(fillReason({ order_type: 'stop_loss', protective: true })).toBe('stop_loss');
    expect(fillReason({ order_type: 'trailing_stop', protective: false })).toBe('trailing_stop');
  });

  it("puts the symbol's fills on their candles, buys below and sells above, in time order", () => {
    const times = [at('2026-05-10T12:00:00Z'), at('2026-05-10T13:00:00Z'), at('2026-05-10T14:00:00Z')];
    const trades = [
      fill({ id: 'f3', side: 'SELL', order_type: 'stop_loss', protective: true, timestamp: '2026-05-10T14:05:00Z' }),
      fill({ id: 'f2', symbol: 'BTC-USD', timestamp: '2026-05-10T13:10:00Z' }),
      fill({ id: 'f1', timestamp: '2026-05-10T12:30:00Z' }),
      fill({ id: 'f0', timestamp: '2026-05-10T11:59:00Z' }), // before the first candle: not drawn
    ];
    expect(tradeMarkers(trades, 'ETH-USD', times)).toEqual([
      { time: times[0], position: 'belowBar', color: '#10b981', shape: 'arrowUp', text: 'BUY' },
      { time: times[2], position: 'aboveBar', color: '#ef4444', shape: 'arrowDown', text: 'SELL SL' },
    ]);
  });
});

describe('positionLevels', () => {
  it("draws the position's average entry and each stop-loss and take-profit with the quantity it covers", () => {
    const p = position({
      protection: [
        { order_id: 's1', kind: 'stop_loss', price: '2280', quantity: '0.5', protective: true },
        { order_id: 't1', kind: 'take_profit', price: '2640', quantity: '0.2', protective: false },
      ],
    });
    expect(positionLevels([position({ symbol: 'BTC-USD', avg_price: '60000' }), p], 'ETH-USD')).toEqual([
      { kind: 'entry', price: 2400.5, title: 'Entry 0.5', color: '#3b82f6' },
      { kind: 'stop_loss', price: 2280, title: 'SL 0.5', color: '#ef4444' },
      { kind: 'take_profit', price: 2640, title: 'TP 0.2', color: '#10b981' },
    ]);
  });

  it('draws nothing for a symbol with no open position', () => {
    expect(positionLevels([position({ quantity: '0' })], 'ETH-USD')).toEqual([]);
    expect(positionLevels(undefined, 'ETH-USD')).toEqual([]);
    expect(positionLevels([position({})], 'SOL-USD')).toEqual([]);
  });
});

describe('widenRange', () => {
  it('keeps a stop below the candles in view', () => {
    expect(widenRange({ minValue: 2350, maxValue: 2450 }, [2400, 2280])).toEqual({ minValue: 2280, maxValue: 2450 });
    expect(widenRange({ minValue: 2350, maxValue: 2450 }, [])).toEqual({ minValue: 2350, maxValue: 2450 });
    expect(widenRange(null, [2280])).toBeNull();
  });
});

describe('liveBar', () => {
  const last = { time: at('2026-05-10T12:00:00Z'), open: 100, high: 110, low: 95, close: 105 };
  it("moves the last bar's close, high and low within its period", () => {
    expect(liveBar(last, 112, at('2026-05-10T12:40:00Z'), 3600)).toEqual({ ...last, high: 112, close: 112 });
    expect(liveBar(last, 90, at('2026-05-10T12:59:59Z'), 3600)).toEqual({ ...last, low: 90, close: 90 });
  });
  it('opens the next bar at the last close when the price falls in the next period', () => {
    expect(liveBar(last, 107, at('2026-05-10T13:00:01Z'), 3600)).toEqual({ time: at('2026-05-10T13:00:00Z'), open: 105, high: 107, low: 105, close: 107 });
  });
  it('ignores an older price, a gap of more than one period and no price', () => {
    expect(liveBar(last, 107, at('2026-05-10T11:59:00Z'), 3600)).toBeNull();
    expect(liveBar(last, 107, at('2026-05-10T15:00:00Z'), 3600)).toBeNull();
    expect(liveBar(last, 0, at('2026-05-10T12:30:00Z'), 3600)).toBeNull();
    expect(liveBar(undefined, 107, at('2026-05-10T12:30:00Z'), 3600)).toBeNull();
  });
});
