import { formatDateTime, toNum } from '@/lib/format';

/** The change over 24 hours: the live price against the price 24 hours ago; null until both are known. */
export function dayChange(price: string | undefined, open: string | undefined): { amount: number; percent: number } | null {
  const p = toNum(price);
  const o = toNum(open);
  if (p <= 0 || o <= 0) return null;
  return { amount: p - o, percent: ((p - o) / o) * 100 };
}

/**
 * Why the prices shown are only the last known ones, or null while they are live: the server stopped answering
 * (lostAt, ms since the epoch), or it answers but its market feed is late.
 */
export function staleNote(lostAt: number | null, marketStatus: string | undefined, tickAgeSeconds: number | undefined): string | null {
  if (lostAt !== null) return `Last known prices: no answer from the server since ${formatDateTime(new Date(lostAt).toISOString())}.`;
  if (marketStatus === 'degraded') {
    return tickAgeSeconds !== undefined && tickAgeSeconds >= 0
      ? `Last known prices: the market feed is late (last price ${Math.round(tickAgeSeconds)} s ago).`
      : 'Last known prices: no price from the market feed yet.';
  }
  return null;
}
