import { toCSV } from '@/lib/csv';
import type { Trade } from '@/lib/types';

export type TimeFilter = 'all' | 'today' | 'week' | 'month';
export interface HistoryFilters {
  search: string;
  status: string; // '' or executed | pending | failed | cancelled
  side: string; // '' or BUY | SELL
  time: TimeFilter;
}

export const ORDER_TYPE_LABEL: Record<Trade['order_type'], string> = { market: 'Market', limit: 'Limit', stop_loss: 'Stop-Loss', trailing_stop: 'Trailing Stop' };

/** The order type a fill came from; fills of protective stops and take-profits say so. */
export function fillTypeLabel(t: Trade): string {
  const label = ORDER_TYPE_LABEL[t.order_type] ?? t.order_type;
  return t.protective ? `${label} (protective)` : label;
}

export function strategyLabel(s: string | null | undefined): string {
  return s && s.trim() ? s : 'Manual';
}

/** Applies the history screen's filters; windows are today, the last 7 days and the last 30 days. */
export function filterTrades(trades: Trade[], f: HistoryFilters, now: Date = new Date()): Trade[] {
  const q = f.search.trim().toLowerCase();
  let since = 0;
  if (f.time === 'today') since = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (f.time === 'week') since = now.getTime() - 7 * 86_400_000;
  if (f.time === 'month') since = now.getTime() - 30 * 86_400_000;
  return trades.filter(
    (t) =>
      (!q || t.symbol.toLowerCase().includes(q) || strategyLabel(t.strategy).toLowerCase().includes(q) || t.id.toLowerCase().includes(q)) &&
      (!f.status || t.status === f.status) &&
      (!f.side || t.side === f.side) &&
      (!since || new Date(t.timestamp).getTime() >= since),
  );
}

/** The spec's columns first, then the fill's order type, order id and the P&L an exit realized. */
export const CSV_COLUMNS = ['Date', 'Symbol', 'Side', 'Quantity', 'Price', 'Total', 'Fee', 'Status', 'Strategy', 'Order Type', 'Order ID', 'Realized P&L'];

/** The CSV export: one row per fill, exact decimal strings as the server sent them, neutralised against formula injection. */
export function tradesToCSV(trades: Trade[]): string {
  const rows = trades.map((t) => [
    t.timestamp,
    t.symbol,
    t.side,
    t.quantity,
    t.price,
    t.total_value,
    t.fee,
    t.status,
    strategyLabel(t.strategy),
    fillTypeLabel(t),
    t.order_id,
    t.realized_pnl ?? '',
  ]);
  return toCSV(CSV_COLUMNS, rows);
}

export function csvFileName(now: Date = new Date()): string {
  return `trade-history-${now.toISOString().slice(0, 10)}.csv`;
}
