/** Display helpers. Amounts arrive as decimal strings; Number() is used only to format them for display. */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function toNum(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** USD with 2 decimals, e.g. $1,234.50. */
export function formatUSD(v: string | number | null | undefined): string {
  return usd.format(toNum(v));
}

/** A signed USD amount, e.g. +$12.00 or -$3.10. */
export function formatSignedUSD(v: string | number | null | undefined): string {
  const n = toNum(v);
  return (n > 0 ? '+' : n < 0 ? '-' : '') + usd.format(Math.abs(n));
}

/** A price: cents above $1, more places below (ADA trades in hundredths of a cent). */
export function formatPrice(v: string | number | null | undefined): string {
  const n = toNum(v);
  if (Math.abs(n) < 1 && n !== 0) return '$' + n.toFixed(4);
  return usd.format(n);
}

/** A quantity without trailing zeros, up to 8 places. */
export function formatQty(v: string | number | null | undefined): string {
  return toNum(v).toLocaleString('en-US', { maximumFractionDigits: 8 });
}

export function formatPercent(v: string | number | null | undefined, places = 2): string {
  const n = toNum(v);
  return `${n > 0 ? '+' : ''}${n.toFixed(places)}%`;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

/** Uptime as hours and minutes, e.g. 5h 07m. */
export function formatUptime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${h}h ${String(m).padStart(2, '0')}m`;
}

export function pnlClass(v: string | number | null | undefined): string {
  const n = toNum(v);
  if (n > 0) return 'text-emerald-600 dark:text-emerald-400';
  if (n < 0) return 'text-red-600 dark:text-red-400';
  return '';
}
