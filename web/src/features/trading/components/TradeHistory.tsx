import { useMemo, useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { btn, Modal, Row } from '@/components/Modal';
import { DataTable, type Column } from '@/components/DataTable';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatPrice, formatQty, formatMoney, formatSignedMoney, pnlClass } from '@/lib/format';
import type { Trade } from '@/lib/types';
import { useHistory } from '../api';
import { csvFileName, fillTypeLabel, filterTrades, strategyLabel, tradesToCSV, type HistoryFilters, type TimeFilter } from '../history';
import { shortId } from '../orders';

const STATUS_CLASS: Record<string, string> = {
  executed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200',
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
  cancelled: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200',
};

function RealizedPnL({ value }: { value: string | null }) {
  return value === null ? <span className="text-slate-400">—</span> : <span className={pnlClass(value)}>{formatSignedMoney(value)}</span>;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** The Trade History columns (a table at md and up, a card per fill on a phone). */
const TRADE_COLUMNS: Column<Trade>[] = [
  { header: 'Date/Time', cell: (t) => formatDateTime(t.timestamp), nowrap: true },
  { header: 'Symbol', cell: (t) => t.symbol, title: true },
  { header: 'Side', cell: (t) => t.side, title: true, className: (t) => `font-semibold ${t.side === 'BUY' ? 'text-emerald-600' : 'text-red-600'}` },
  { header: 'Quantity', cell: (t) => formatQty(t.quantity) },
  { header: 'Price', cell: (t) => formatPrice(t.price, t.symbol) },
  { header: 'Total', cell: (t) => formatMoney(t.total_value) },
  { header: 'Fee', cell: (t) => formatMoney(t.fee) },
  { header: 'Status', cell: (t) => <span className={`rounded px-2 py-0.5 text-xs ${STATUS_CLASS[t.status] ?? ''}`}>{t.status}</span> },
  { header: 'Strategy', cell: (t) => strategyLabel(t.strategy) },
  { header: 'Type', cell: (t) => fillTypeLabel(t), nowrap: true },
  {
    header: 'Order',
    cell: (t) => (
      <span className="font-mono text-xs" title={t.order_id}>
        {shortId(t.order_id)}
      </span>
    ),
  },
  { header: 'Realized P&L', cell: (t) => <RealizedPnL value={t.realized_pnl} /> },
];

/** Trade history: the account's fills (orders that have not filled are on Orders); limit 500 on the history screen, 50 in the Trading Center; refreshed every 10 s. */
export function TradeHistory({ limit = 500 }: { limit?: number }) {
  const history = useHistory(limit, 10_000);
  const [f, setF] = useState<HistoryFilters>({ search: '', status: '', side: '', time: 'all' });
  const [details, setDetails] = useState<Trade | null>(null);
  const all = useMemo(() => history.data?.trades ?? [], [history.data]);
  const shown = useMemo(() => filterTrades(all, f), [all, f]);
  const sel = 'rounded border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';

  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <input aria-label="Search trades" placeholder="Search symbol or strategy" className={`${sel} w-56`} value={f.search} onChange={(e) => setF({ ...f, search: e.target.value })} />
        <select aria-label="Status" className={sel} value={f.status} onChange={(e) => setF({ ...f, status: e.target.value })}>
          <option value="">All Status</option>
          <option value="executed">Executed</option>
          <option value="pending">Pending</option>
          <option value="failed">Failed</option>
          <option value="cancelled">Cancelled</option>
        </select>
        <select aria-label="Side" className={sel} value={f.side} onChange={(e) => setF({ ...f, side: e.target.value })}>
          <option value="">All Sides</option>
          <option value="BUY">Buy</option>
          <option value="SELL">Sell</option>
        </select>
        <select aria-label="Time" className={sel} value={f.time} onChange={(e) => setF({ ...f, time: e.target.value as TimeFilter })}>
          <option value="all">All Time</option>
          <option value="today">Today</option>
          <option value="week">Last Week</option>
          <option value="month">Last Month</option>
        </select>
        <span className="ml-auto text-sm text-slate-500 dark:text-slate-400" data-testid="trade-count">
          {shown.length} of {all.length} trades
        </span>
        <button type="button" className={btn.secondary} disabled={shown.length === 0} onClick={() => download(csvFileName(), tradesToCSV(shown))}>
          Export CSV
        </button>
      </div>
      {history.isError && <ErrorBox message={errorMessage(history.error, 'Failed to fetch trades')} />}
      {history.isPending ? (
        <Spinner />
      ) : shown.length === 0 ? (
        <p className="py-10 text-center text-slate-500 dark:text-slate-400">No trades found matching your criteria</p>
      ) : (
        <DataTable
          label="Trades"
          rows={shown}
          columns={TRADE_COLUMNS}
          rowKey={(t) => t.id}
          rowTestId="trade-row"
          actions={(t) => (
            <button type="button" className={btn.small} onClick={() => setDetails(t)}>
              View
            </button>
          )}
        />
      )}
      {details && (
        <Modal title="Trade Details" onClose={() => setDetails(null)}>
          <Row label="Fill ID">
            <span className="font-mono text-xs">{details.id}</span>
          </Row>
          <Row label="Order ID">
            <span className="font-mono text-xs">{details.order_id}</span>
          </Row>
          <Row label="Date/Time">{formatDateTime(details.timestamp)}</Row>
          <Row label="Symbol">{details.symbol}</Row>
          <Row label="Side">{details.side}</Row>
          <Row label="Type">{fillTypeLabel(details)}</Row>
          <Row label="Quantity">{formatQty(details.quantity)}</Row>
          <Row label="Price">{formatPrice(details.price, details.symbol)}</Row>
          <Row label="Total">{formatMoney(details.total_value)}</Row>
          <Row label="Fee">{formatMoney(details.fee)}</Row>
          <Row label="Liquidity">{details.liquidity || '—'}</Row>
          <Row label="Status">{details.status}</Row>
          <Row label="Strategy">{strategyLabel(details.strategy)}</Row>
          <Row label="Realized P&L">
            <RealizedPnL value={details.realized_pnl} />
          </Row>
        </Modal>
      )}
    </Card>
  );
}

