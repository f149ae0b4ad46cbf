/**
 * The one formatter for what the screens show: numbers, money, prices,
 * quantities, percentages, dates, times and chart axes, all following the
 * signed-in user's display settings (thousands separator, decimal places,
 * currency, date and time format, time zone). Amounts arrive as decimal
 * strings; Number() is used only to format them for display.
 *
 * CSV export does not use it (lib/csv.ts): a file is read by programs, so it
 * keeps the server's decimal strings, '.' decimals and no grouping, whatever
 * the settings say.
 */

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

type Num = string | number | null | undefined;

export function toNum(v: Num): number {
  if (v === null || v === undefined || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** The decimal mark that goes with a thousands separator: ',' when '.' groups thousands, '.' otherwise. */
export function decimalMark(separator = prefs.separator): string {
  return separator === '.' ? ',' : '.';
}

/**
 * n rounded to `decimals` places, its integer part grouped with the
 * separator; trailing zeros are dropped down to minDecimals places. A figure
 * that rounds to zero has no minus sign (never "-0.00").
 */
export function groupNumber(n: number, decimals: number, separator = prefs.separator, minDecimals = decimals): string {
  const fixed = Math.abs(n).toFixed(decimals);
  const [int, frac = ''] = fixed.split('.');
  const kept = minDecimals < decimals ? frac.replace(/0+$/, '').padEnd(minDecimals, '0') : frac;
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return (n < 0 && Number(fixed) !== 0 ? '-' : '') + grouped + (kept ? decimalMark(separator) + kept : '');
}

/** A plain figure (a ratio, an index) with a fixed number of places. */
export function formatNumber(v: Num, places = 2): string {
  return groupNumber(toNum(v), places);
}

/** A whole count: candles, calls, tokens. */
export function formatCount(v: Num): string {
  return groupNumber(toNum(v), 0);
}

/** A large figure shortened to K, M, B or T, up to `places` places: 1.5M. */
export function formatCompact(v: Num, places = 2): string {
  const n = toNum(v);
  const a = Math.abs(n);
  const [div, unit] = a >= 1e12 ? [1e12, 'T'] : a >= 1e9 ? [1e9, 'B'] : a >= 1e6 ? [1e6, 'M'] : a >= 1e3 ? [1e3, 'K'] : [1, ''];
  return groupNumber(n / div, places, prefs.separator, 0) + unit;
}

const SYMBOL: Record<string, string> = { USD: '$', BTC: '₿', ETH: 'Ξ' };

/** Whether account amounts are shown converted to BTC or ETH (at the live price). */
function inCrypto(): boolean {
  return (prefs.currency === 'BTC' || prefs.currency === 'ETH') && prefs.rate > 0;
}

/**
 * An account amount held in USD, shown in the display currency: BTC and ETH
 * at the live price; EUR and GBP stay USD, labelled "$" (there is no exchange
 * rate to convert with; the Settings screen says so).
 */
export function formatMoney(v: Num): string {
  const n = toNum(v);
  if (inCrypto()) return signed(n * prefs.rate, SYMBOL[prefs.currency]!, Math.max(prefs.decimals, 6));
  return signed(n, '$', prefs.decimals);
}

/** A sign, then the unit, then the grouped amount: -$3.10; no sign when it rounds to zero. */
function signed(n: number, unit: string, places: number, minPlaces = places, plus = false): string {
  const body = groupNumber(Math.abs(n), places, prefs.separator, minPlaces);
  const zero = Number(Math.abs(n).toFixed(places)) === 0;
  const sign = zero ? '' : n < 0 ? '-' : plus ? '+' : '';
  return sign + unit + body;
}

/** A signed account amount, e.g. +$12.00 or -$3.10 (no sign on zero). */
export function formatSignedMoney(v: Num): string {
  const n = toNum(v);
  if (inCrypto()) return signed(n * prefs.rate, SYMBOL[prefs.currency]!, Math.max(prefs.decimals, 6), undefined, true);
  return signed(n, '$', prefs.decimals, undefined, true);
}

/** Each market's price increment as a number of decimal places (set by the layout from the products list). */
let pricePlaces = new Map<string, number>();
let pricePlacesFrom: unknown = null;

/** Records the markets' price increments: '0.0001' (ADA) means prices show 4 places. */
export function setPriceIncrements(products: { product_id: string; price_increment: string }[]): void {
  if (products === pricePlacesFrom) return; // the layout calls this on every render
  pricePlacesFrom = products;
  pricePlaces = new Map(products.map((p) => [p.product_id, Math.max(2, p.price_increment.split('.')[1]?.replace(/0+$/, '').length ?? 0)]));
}

/**
 * Decimal places for a price: as many as the market's price increment needs
 * (cents for most, hundredths of a cent for ADA), and never fewer than two.
 * Before the products load, or without a market: cents from $1 up, 4 places
 * below (ADA trades in hundredths of a cent).
 */
export function priceDecimals(symbol: string | undefined, n: number): number {
  const known = symbol ? pricePlaces.get(symbol) : undefined;
  if (known !== undefined) return known;
  return Math.abs(n) < 1 && n !== 0 ? 4 : 2;
}

/** A market price in USD (the quote currency of every market), e.g. $64,250.10 or $0.4512. */
export function formatPrice(v: Num, symbol?: string): string {
  const n = toNum(v);
  return signed(n, '$', priceDecimals(symbol, n));
}

/** A quantity: up to 8 places, without trailing zeros. */
export function formatQty(v: Num): string {
  return groupNumber(toNum(v), 8, prefs.separator, 0);
}

/** A change as a signed percent: +1.50%, -2.30%, 0.00% (never -0.00%). */
export function formatPercent(v: Num, places = 2): string {
  const n = toNum(v);
  return signed(n, '', places, places, true) + '%';
}

/** A share, rate or level as a percent, unsigned unless negative: 62.5%. */
export function formatShare(v: Num, places = 1): string {
  return signed(toNum(v), '', places) + '%';
}

interface DateParts {
  y: string;
  m: string;
  d: string;
  time: string; // hh:mm or hh:mm:ss, with AM/PM on a 12-hour clock
}

/** The parts of d in the chosen time zone and clock; null when the zone is unknown to the browser. */
function dateParts(d: Date, p: DisplayPrefs, seconds: boolean): DateParts | null {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: p.timezone || 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: p.timeFormat === '12h' ? 'h12' : 'h23',
    }).formatToParts(d);
  } catch {
    return null;
  }
  const get = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  const clock = `${get('hour')}:${get('minute')}` + (seconds ? `:${get('second')}` : '');
  return { y: get('year'), m: get('month'), d: get('day'), time: clock + (p.timeFormat === '12h' ? ` ${get('dayPeriod')}` : '') };
}

function dateOf(x: DateParts, p: DisplayPrefs): string {
  return p.dateFormat === 'DD/MM/YYYY' ? `${x.d}/${x.m}/${x.y}` : p.dateFormat === 'YYYY-MM-DD' ? `${x.y}-${x.m}-${x.d}` : `${x.m}/${x.d}/${x.y}`;
}

function parseDate(v: string | number | Date | null | undefined): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date and time in the chosen date format, 12h/24h clock and time zone. */
export function formatDateTime(iso: string | null | undefined, p: DisplayPrefs = prefs): string {
  const d = parseDate(iso);
  if (!d) return '—';
  const x = dateParts(d, p, true);
  return x ? `${dateOf(x, p)}, ${x.time}` : d.toISOString();
}

/**
 * A calendar date in the chosen date format. A bare day ('2026-05-01') is
 * that day wherever the reader is; a moment is its day in the chosen zone.
 */
export function formatDate(iso: string | null | undefined, p: DisplayPrefs = prefs): string {
  if (!iso) return '—';
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const d = parseDate(bare ? `${iso}T12:00:00Z` : iso);
  if (!d) return '—';
  const x = dateParts(d, bare ? { ...p, timezone: 'UTC' } : p, false);
  return x ? dateOf(x, p) : iso.slice(0, 10);
}

/** Uptime as hours and minutes, e.g. 5h 07m. */
export function formatUptime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${h}h ${String(m).padStart(2, '0')}m`;
}

export function pnlClass(v: Num): string {
  const n = toNum(v);
  if (n > 0) return 'text-emerald-600 dark:text-emerald-400';
  if (n < 0) return 'text-red-600 dark:text-red-400';
  return '';
}

// Chart axes. The chart library asks for a label per tick; these give it the same separators, currency, date order,
// clock and time zone as the rest of the screen.

/** A money axis in the display currency: cents below 100, whole units above (-$4.13, $1,250). */
export function moneyAxis(v: number): string {
  if (inCrypto()) {
    const x = v * prefs.rate;
    return signed(x, SYMBOL[prefs.currency]!, 6, 0);
  }
  return signed(v, '$', Math.abs(v) < 100 ? 2 : 0);
}

/** A price axis: the places the market's prices need. */
export function priceAxis(symbol?: string): (v: number) => string {
  return (v) => formatPrice(v, symbol);
}

/** A fraction axis as a percent: 0.125 -> 12.5%. */
export function fractionAxis(places = 1): (v: number) => string {
  return (v) => formatShare(v * 100, places);
}

/** A percent axis for figures already in percent: 12.5 -> 12.5%. */
export function percentAxis(places = 1): (v: number) => string {
  return (v) => formatShare(v, places);
}

/** What a time-axis tick marks, coarsest first (the chart library's tick mark types, by name). */
export type TickKind = 'year' | 'month' | 'day' | 'time' | 'seconds';

/** A time-axis tick (unix seconds) as short as its kind allows: 2026, 05/2026, 05/01, 14:00. */
export function timeTick(unixSeconds: number, kind: TickKind, p: DisplayPrefs = prefs): string {
  const x = dateParts(new Date(unixSeconds * 1000), p, kind === 'seconds');
  if (!x) return '';
  const ymd = p.dateFormat === 'YYYY-MM-DD';
  const dmy = p.dateFormat === 'DD/MM/YYYY';
  switch (kind) {
    case 'year':
      return x.y;
    case 'month':
      return ymd ? `${x.y}-${x.m}` : `${x.m}/${x.y}`;
    case 'day':
      return ymd ? `${x.m}-${x.d}` : dmy ? `${x.d}/${x.m}` : `${x.m}/${x.d}`;
    default:
      return x.time;
  }
}

/**
 * The crosshair's time label (unix seconds): date and time in the chosen
 * zone; or, on a chart of days (points at UTC midnight), just that day.
 */
export function timeLabel(unixSeconds: number, withTime: boolean, p: DisplayPrefs = prefs): string {
  const d = new Date(unixSeconds * 1000);
  if (!withTime) return formatDate(d.toISOString().slice(0, 10), p);
  const x = dateParts(d, p, false);
  return x ? `${dateOf(x, p)} ${x.time}` : d.toISOString();
}
