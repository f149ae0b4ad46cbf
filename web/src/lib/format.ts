/** Display helpers. Amounts arrive as decimal strings; Number() is used only to format them for display. */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The signed-in user's display settings (ui.display and ui.language). The
 * layout sets them from the settings before the screens render.
 */
export interface DisplayPrefs {
  currency: string; // USD, BTC or ETH are shown; others fall back to USD
  decimals: number;
  separator: string; // thousands separator: ',', '.' or ' '
  dateFormat: string; // MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD
  timeFormat: string; // 12h or 24h
  timezone: string;
  /** Units of currency per USD (BTC and ETH from the live price); 0 when unknown. */
  rate: number;
}

export const DEFAULT_PREFS: DisplayPrefs = { currency: 'USD', decimals: 2, separator: ',', dateFormat: 'MM/DD/YYYY', timeFormat: '24h', timezone: 'UTC', rate: 1 };
let prefs: DisplayPrefs = DEFAULT_PREFS;

export function setDisplayPrefs(p: DisplayPrefs): void {
  prefs = p;
}

export function displayPrefs(): DisplayPrefs {
  return prefs;
}

const SYMBOL: Record<string, string> = { USD: '$', BTC: '₿', ETH: 'Ξ' };

/** Groups the integer part with the chosen separator; the decimal mark is '.' unless '.' groups. */
export function groupNumber(n: number, decimals: number, separator = prefs.separator): string {
  const [int, frac] = Math.abs(n).toFixed(decimals).split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  const mark = separator === '.' ? ',' : '.';
  return (n < 0 ? '-' : '') + grouped + (frac ? mark + frac : '');
}

/** An account amount held in USD, shown in the display currency. */
export function formatMoney(v: string | number | null | undefined): string {
  const n = toNum(v);
  const crypto = (prefs.currency === 'BTC' || prefs.currency === 'ETH') && prefs.rate > 0;
  if (crypto) {
    const x = n * prefs.rate;
    return (x < 0 ? '-' : '') + SYMBOL[prefs.currency] + groupNumber(Math.abs(x), Math.max(prefs.decimals, 6));
  }
  return (n < 0 ? '-' : '') + '$' + groupNumber(Math.abs(n), prefs.decimals);
}

/** A signed account amount, e.g. +$12.00 or -$3.10. */
export function formatSignedMoney(v: string | number | null | undefined): string {
  const n = toNum(v);
  return (n > 0 ? '+' : n < 0 ? '-' : '') + formatMoney(Math.abs(n));
}

export function toNum(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
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
  const s = n.toFixed(places);
  if (Number(s) === 0) return `${(0).toFixed(places)}%`; // no "-0.00%"
  return `${n > 0 ? '+' : ''}${s}%`;
}

/** A date and time in the chosen date format, 12h/24h clock and time zone. */
export function formatDateTime(iso: string | null | undefined, p: DisplayPrefs = prefs): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: p.timezone || 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: p.timeFormat === '12h' ? 'h12' : 'h23',
    }).formatToParts(d);
  } catch {
    return d.toISOString();
  }
  const get = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  const [y, m, day] = [get('year'), get('month'), get('day')];
  const date = p.dateFormat === 'DD/MM/YYYY' ? `${day}/${m}/${y}` : p.dateFormat === 'YYYY-MM-DD' ? `${y}-${m}-${day}` : `${m}/${day}/${y}`;
  const time = `${get('hour')}:${get('minute')}:${get('second')}` + (p.timeFormat === '12h' ? ` ${get('dayPeriod')}` : '');
  return `${date}, ${time}`;
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
