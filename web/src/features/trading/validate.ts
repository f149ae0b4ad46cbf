import type { TradeInput } from './api';

/** The spec's trading-form messages (section 5), mirrored from the server. */
export const MSG = {
  symbol: 'Symbol is required',
  quantity: 'Valid quantity is required',
  price: 'Valid price is required for limit orders',
  stopPrice: 'Valid stop price is required for stop orders',
} as const;

export function validateTrade(t: TradeInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!t.symbol) errors.symbol = MSG.symbol;
  const q = Number(t.quantity);
  if (t.quantity.trim() === '' || !Number.isFinite(q) || q <= 0) errors.quantity = MSG.quantity;
  const p = Number(t.price);
  const priceOK = t.price.trim() !== '' && Number.isFinite(p) && p > 0;
  if (t.orderType === 'limit' && !priceOK) errors.price = MSG.price;
  if (t.orderType === 'stop_loss' && !priceOK) errors.price = MSG.stopPrice;
  return errors;
}
