import type { Product } from '@/lib/types';
import type { TradeInput } from './api';

/** The spec's trading-form messages (section 5), mirrored from the server. */
export const MSG = {
  symbol: 'Symbol is required',
  quantity: 'Valid quantity is required',
  price: 'Valid price is required for limit orders',
  stopPrice: 'Valid stop price is required for stop orders',
  trailPercent: 'Trail percent must be above 0 and below 100',
  trailAmount: 'Trail amount must be positive',
  activation: 'Activation price must be positive',
} as const;

/** The server's increment messages; amounts as the product lists them, without trailing zeros. */
export const incrementMsg = {
  price: (inc: string) => `Price must be a multiple of ${plainDecimal(inc)}`,
  quantity: (inc: string) => `Quantity must be a multiple of ${plainDecimal(inc)}`,
  minQuantity: (min: string) => `Quantity must be at least ${plainDecimal(min)}`,
};

const PLAIN = /^\d+(\.\d*)?$|^\.\d+$/;

/** A decimal string without trailing fraction zeros: "0.010" -> "0.01", "5.0" -> "5". */
export function plainDecimal(s: string): string {
  const t = s.trim();
  if (!t.includes('.')) return t;
  return t.replace(/0+$/, '').replace(/\.$/, '');
}

/** A non-negative decimal as digits and a scale, or null when it is not a plain decimal. */
function parseDecimal(s: string): { digits: bigint; scale: number } | null {
  let t = s.trim();
  if (!PLAIN.test(t)) {
    const n = Number(t); // e.g. "1e3" typed into a number input
    if (!Number.isFinite(n) || n < 0) return null;
    t = String(n);
    if (!PLAIN.test(t)) return null;
  }
  const [int = '', frac = ''] = t.split('.');
  return { digits: BigInt((int || '0') + frac), scale: frac.length };
}

function scaled(d: { digits: bigint; scale: number }, scale: number): bigint {
  return d.digits * 10n ** BigInt(scale - d.scale);
}

/** Whether value is an exact multiple of increment, compared as decimals (no binary rounding). */
export function isMultipleOf(value: string, increment: string): boolean {
  const v = parseDecimal(value);
  const inc = parseDecimal(increment);
  if (!v || !inc || inc.digits === 0n) return false;
  const scale = Math.max(v.scale, inc.scale);
  return scaled(v, scale) % scaled(inc, scale) === 0n;
}

/** a < b for decimal strings. */
export function decimalLess(a: string, b: string): boolean {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return false;
  const scale = Math.max(x.scale, y.scale);
  return scaled(x, scale) < scaled(y, scale);
}

/** Quantity against the product's size increment and minimum; null when fine. */
export function quantityRuleError(quantity: string, product: Product | undefined): string | null {
  if (!product) return null;
  if (product.base_min_size && decimalLess(quantity, product.base_min_size)) return incrementMsg.minQuantity(product.base_min_size);
  if (product.base_increment && !isMultipleOf(quantity, product.base_increment)) return incrementMsg.quantity(product.base_increment);
  return null;
}

/** A limit or stop price against the product's price increment; null when fine. */
export function priceRuleError(price: string, product: Product | undefined): string | null {
  if (!product?.price_increment) return null;
  return isMultipleOf(price, product.price_increment) ? null : incrementMsg.price(product.price_increment);
}

function positive(s: string): boolean {
  const n = Number(s);
  return s.trim() !== '' && Number.isFinite(n) && n > 0;
}

/**
 * The trading form's rules. The product's increments apply once the products
 * have loaded; until then only the spec's rules do (the server checks anyway).
 */
export function validateTrade(t: TradeInput, product?: Product): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!t.symbol) errors.symbol = MSG.symbol;
  if (!positive(t.quantity)) errors.quantity = MSG.quantity;
  else {
    const q = quantityRuleError(t.quantity, product);
    if (q) errors.quantity = q;
  }
  if (t.orderType === 'market') return errors;
  if (t.orderType === 'trailing_stop') {
    const trail = t.trail ?? '';
    if (!positive(trail)) errors.trail = t.trailUnit === 'amount' ? MSG.trailAmount : MSG.trailPercent;
    else if (t.trailUnit !== 'amount' && Number(trail) >= 100) errors.trail = MSG.trailPercent;
    else if (t.trailUnit === 'amount') {
      const p = priceRuleError(trail, product);
      if (p) errors.trail = p;
    }
    const act = t.activation ?? '';
    if (act.trim() !== '') {
      const p = positive(act) ? priceRuleError(act, product) : MSG.activation;
      if (p) errors.activation = p;
    }
    return errors;
  }
  if (!positive(t.price)) errors.price = t.orderType === 'limit' ? MSG.price : MSG.stopPrice;
  else {
    const p = priceRuleError(t.price, product);
    if (p) errors.price = p;
  }
  return errors;
}

/**
 * Modify Order: empty fields keep their values; filled ones follow the same rules as a new order. For a stop, stop
 * says its side and the last price: a SELL stop must stay below the market and a BUY stop above it (the server checks
 * the same against its own price; this only saves a round trip).
 */
export function validateModify(quantity: string, price: string, product?: Product, stop?: { side: string; last?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (quantity.trim() !== '') {
    const q = positive(quantity) ? quantityRuleError(quantity, product) : MSG.quantity;
    if (q) errors.quantity = q;
  }
  if (price.trim() !== '') {
    const p = positive(price) ? priceRuleError(price, product) : stop ? MSG.stopPrice : MSG.price;
    if (p) errors.price = p;
    else if (stop?.last && Number(stop.last) > 0) {
      const v = Number(price);
      const last = Number(stop.last);
      if (stop.side === 'SELL' && v >= last) errors.price = `Stop price must be below the current price (${stop.last}) for a SELL stop-loss`;
      if (stop.side === 'BUY' && v <= last) errors.price = `Stop price must be above the current price (${stop.last}) for a BUY stop`;
    }
  }
  return errors;
}
