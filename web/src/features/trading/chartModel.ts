/**
 * What the price chart draws besides the candles, computed without the chart library: the symbol and timeframe
 * read from the URL, the account's fills as markers, the open position's entry, stop-loss and take-profit as
 * labelled price lines, and the live bar a ticker makes of the last candle.
 */
import { fillMarkers, type MarkedFill } from '@/components/chart';
import { formatQty, toNum } from '@/lib/format';
import type { Position, Trade } from '@/lib/types';
import { TIMEFRAMES } from './api';
import { maxOf, minOf } from '@/lib/extent';

export interface ChartView {
  symbol: string;
  tf: string;
}

/** The market the chart shows before any is chosen or listed. */
export const DEFAULT_SYMBOL = 'BTC-USD';

/**
 * The chart's symbol and timeframe from ?symbol=ETH-USD&tf=1h; an unknown or missing value falls back to
 * DEFAULT_SYMBOL when the server lists it, else to the first listed symbol (the list is alphabetical, so its
 * first is no better a default). While the symbols load (`symbols` empty) the URL's symbol is taken as it is.
 */
export function viewFromQuery(q: URLSearchParams, fallbackTf: string, symbols: readonly string[]): ChartView {
  const sym = q.get('symbol')?.toUpperCase() ?? '';
  const tf = q.get('tf') ?? '';
  const known = symbols.length === 0 ? sym !== '' : symbols.includes(sym);
  return {
    symbol: known ? sym : symbols.includes(DEFAULT_SYMBOL) ? DEFAULT_SYMBOL : (symbols[0] ?? DEFAULT_SYMBOL),
    tf: tf in TIMEFRAMES ? tf : fallbackTf in TIMEFRAMES ? fallbackTf : '1h',
  };
}

/** Why a fill happened, as a marker reads it: a stop-loss, trailing stop or take-profit exit, or '' for an ordinary order. */
export function fillReason(t: Pick<Trade, 'order_type' | 'protective'>): string {
  if (t.order_type === 'stop_loss' || t.order_type === 'trailing_stop') return t.order_type;
  if (t.order_type === 'limit' && t.protective) return 'take_profit';
  return '';
}

const REASON_LABEL: Record<string, string> = { stop_loss: 'SL', trailing_stop: 'TS', take_profit: 'TP' };

export interface ChartMarker {
  time: number;
  position: 'belowBar' | 'aboveBar';
  color: string;
  shape: 'arrowUp' | 'arrowDown';
  text: string;
}

export const BUY_COLOR = '#10b981';
export const SELL_COLOR = '#ef4444';

/** The symbol's fills as markers on the candles they fall in: buys below the bar, sells above, exits by a stop or take-profit named. */
export function tradeMarkers(trades: Trade[], symbol: string, candleTimes: number[]): ChartMarker[] {
  const fills: MarkedFill[] = trades.filter((t) => t.symbol === symbol).map((t) => ({ time: t.timestamp, side: t.side, reason: fillReason(t) }));
  return fillMarkers(fills, candleTimes).map((m) => {
    const text = [m.side, REASON_LABEL[m.reason]].filter(Boolean).join(' ');
    return m.side === 'BUY'
      ? { time: m.time, position: 'belowBar', color: BUY_COLOR, shape: 'arrowUp', text }
      : { time: m.time, position: 'aboveBar', color: SELL_COLOR, shape: 'arrowDown', text };
  });
}

export interface PriceLevel {
  kind: 'entry' | 'stop_loss' | 'take_profit';
  price: number;
  title: string;
  color: string;
}

const LEVEL_COLOR: Record<PriceLevel['kind'], string> = { entry: '#3b82f6', stop_loss: SELL_COLOR, take_profit: BUY_COLOR };

/**
 * The open position on the symbol as price lines: its average entry ("Entry 0.01"), and each live stop-loss
 * ("SL 0.01") and take-profit ("TP 0.01") with the quantity it covers. Nothing when the symbol is flat.
 */
export function positionLevels(positions: Position[] | undefined, symbol: string): PriceLevel[] {
  const p = positions?.find((x) => x.symbol === symbol && toNum(x.quantity) > 0);
  if (!p) return [];
  const out: PriceLevel[] = [{ kind: 'entry', price: toNum(p.avg_price), title: `Entry ${formatQty(p.quantity)}`, color: LEVEL_COLOR.entry }];
  for (const l of p.protection) {
    const price = toNum(l.price);
    if (price <= 0) continue;
    out.push({ kind: l.kind, price, title: `${l.kind === 'stop_loss' ? 'SL' : 'TP'} ${formatQty(l.quantity)}`, color: LEVEL_COLOR[l.kind] });
  }
  return out;
}

/** The price range the chart scales to: the candles' own, widened to keep every price line in view. */
export function widenRange(range: { minValue: number; maxValue: number } | null, prices: number[]): { minValue: number; maxValue: number } | null {
  if (!range || prices.length === 0) return range;
  return { minValue: minOf(prices, range.minValue), maxValue: maxOf(prices, range.maxValue) };
}

export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * The bar a live price makes: the last bar moved to the price when it falls in that bar's period, a new bar when
 * it falls in the next one, and null when it is older, later than the next period (the candles will be
 * refetched), or not a price.
 */
export function liveBar(last: Bar | undefined, price: number, atSec: number, widthSec: number): Bar | null {
  if (!last || !(price > 0) || widthSec <= 0) return null;
  const start = atSec - (atSec % widthSec);
  if (start === last.time) return { ...last, high: Math.max(last.high, price), low: Math.min(last.low, price), close: price };
  if (start === last.time + widthSec) return { time: start, open: last.close, high: Math.max(last.close, price), low: Math.min(last.close, price), close: price };
  return null;
}
