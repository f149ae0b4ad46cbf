/**
 * Order sizing with exact decimal arithmetic: a fee estimate, a USD amount turned into a base quantity, and a share of
 * the available balance. Amounts are decimal strings as the server sends them; every step is an exact fraction of
 * BigInts, so what is sent to the server never passes through binary floating point.
 */
import type { TradeInput } from './api';

/** An exact non-negative rational number. */
interface Frac {
  n: bigint;
  d: bigint;
}

const PLAIN = /^\d+(\.\d*)?$|^\.\d+$/;

/** A plain non-negative decimal string as an exact fraction, or null when it is not one. */
function frac(s: string | undefined | null): Frac | null {
  const t = (s ?? '').trim();
  if (!PLAIN.test(t)) return null;
  const [int = '', f = ''] = t.split('.');
  return { n: BigInt((int || '0') + f), d: 10n ** BigInt(f.length) };
}

const mul = (a: Frac, b: Frac): Frac => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d, d: a.d * b.n });
const add = (a: Frac, b: Frac): Frac => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const ONE: Frac = { n: 1n, d: 1n };

/** Digits after the point of a decimal string ("0.00000001" -> 8). */
function scaleOf(s: string): number {
  const f = s.trim().split('.')[1] ?? '';
  return f.length;
}

/** n / 10^scale written as a decimal string with trailing fraction zeros dropped. */
function toDecimal(n: bigint, scale: number): string {
  const digits = n.toString().padStart(scale + 1, '0');
  if (scale === 0) return digits;
  const int = digits.slice(0, -scale);
  const f = digits.slice(-scale).replace(/0+$/, '');
  return f ? `${int}.${f}` : int;
}

/** The largest multiple of increment at or below x, as a decimal string; null without a usable increment. */
function floorTo(x: Frac, increment: string): string | null {
  const inc = frac(increment);
  if (!inc || inc.n === 0n) return null;
  const q = (x.n * inc.d) / (x.d * inc.n); // BigInt division truncates: the floor for non-negatives
  return toDecimal(q * inc.n, scaleOf(increment)); // inc.d is 10^scale
}

/** An exact decimal string of x (its denominator is a power of ten times a factor of it). */
function exact(x: Frac, scale: number): string {
  return toDecimal((x.n * 10n ** BigInt(scale)) / x.d, scale);
}

/** Which fee an order pays: a limit that would cross the book (a BUY at or above the ask, a SELL at or below the bid) takes; any other limit rests and makes; every other type takes. */
export function liquidityOf(t: Pick<TradeInput, 'orderType' | 'side' | 'price'>, book?: { bid: string; ask: string }): 'taker' | 'maker' {
  if (t.orderType !== 'limit') return 'taker';
  const p = frac(t.price);
  const edge = frac(t.side === 'BUY' ? book?.ask : book?.bid);
  if (!p || !edge) return 'maker';
  const cross = t.side === 'BUY' ? p.n * edge.d >= edge.n * p.d : p.n * edge.d <= edge.n * p.d;
  return cross ? 'taker' : 'maker';
}

/** quantity x price x rate, exactly; null when any of them is not a decimal. */
export function feeEstimate(quantity: string, price: string, rate: string): string | null {
  const q = frac(quantity);
  const p = frac(price);
  const r = frac(rate);
  if (!q || !p || !r) return null;
  return exact(mul(mul(q, p), r), scaleOf(quantity) + scaleOf(price) + scaleOf(rate));
}

/** quantity x price, exactly; null when either is not a decimal. */
export function notional(quantity: string, price: string): string | null {
  const q = frac(quantity);
  const p = frac(price);
  if (!q || !p) return null;
  return exact(mul(q, p), scaleOf(quantity) + scaleOf(price));
}

/** A USD amount as a base quantity at price, rounded down to the increment; null when it cannot be computed. */
export function usdToBase(usd: string, price: string, increment: string): string | null {
  const u = frac(usd);
  const p = frac(price);
  if (!u || !p || p.n === 0n) return null;
  return floorTo(div(u, p), increment);
}

/** Shares of the available balance the form offers, in percent. */
export const SHARES = [25, 50, 100] as const;

/**
 * The base quantity that uses percent of the available balance, rounded down to the increment. A BUY spends
 * percent of the available USD on the notional and its fee together (quantity x price x (1 + fee rate) stays
 * within it, so 100% is not refused for the fee); a SELL sells percent of the available base asset.
 */
export function shareOfBalance(a: { side: 'BUY' | 'SELL'; percent: number; available: string; price: string; feeRate: string; increment: string }): string | null {
  const avail = frac(a.available);
  if (!avail) return null;
  const part = mul(avail, { n: BigInt(a.percent), d: 100n });
  if (a.side === 'SELL') return floorTo(part, a.increment);
  const p = frac(a.price);
  const r = frac(a.feeRate);
  if (!p || !r || p.n === 0n) return null;
  return floorTo(div(part, mul(p, add(ONE, r))), a.increment);
}

/** The USD a base quantity comes to at price, rounded down to the cent (what a USD amount field shows). */
export function baseToUsd(quantity: string, price: string): string | null {
  const q = frac(quantity);
  const p = frac(price);
  if (!q || !p) return null;
  return floorTo(mul(q, p), '0.01');
}

/** A fee rate as a percent for a label: "0.006" -> "0.6%". */
export function ratePercent(rate: string): string {
  const r = frac(rate);
  if (!r) return '';
  return `${exact(mul(r, { n: 100n, d: 1n }), scaleOf(rate))}%`;
}
