import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorBox } from '@/components/Field';
import { RetryingNote, useRetrying } from '@/components/Retrying';
import { btn, inputClass, Modal, Row, Stat } from '@/components/Modal';
import { DataTable, type Column } from '@/components/DataTable';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { api, errorMessage } from '@/lib/api';
import { formatDateTime, formatPercent, formatPrice, formatQty, formatShare, formatSignedMoney, formatMoney, pnlClass, toNum } from '@/lib/format';
import { newClientOrderId, orderFailureMessage, sendWithRetry } from '@/lib/retry';
import type { Position } from '@/lib/types';
import { useInvalidateTrading, usePortfolio, usePositions } from '../api';
import { shortId } from '../orders';
import { TradingForm } from './TradingForm';

/** Spec: close-position quantity must be in (0, |qty|]. */
export function closeQuantityValid(input: string, position: Position): boolean {
  const q = Number(input);
  return input.trim() !== '' && Number.isFinite(q) && q > 0 && q <= Math.abs(toNum(position.quantity));
}

/** What the average price is: the position's cost basis per unit (average cost). */
const AVG_PRICE_NOTE = 'Average cost per unit: what the buys cost, their fees included, divided by the quantity held';

/** The Positions columns (a table at md and up, a card per position on a phone). */
const POSITION_COLUMNS: Column<Position>[] = [
  { header: 'Symbol', cell: (p) => p.symbol, title: true, className: () => 'font-semibold' },
  { header: 'Quantity', cell: (p) => (toNum(p.quantity) > 0 ? '+' : '') + formatQty(p.quantity) },
  {
    header: 'Avg Price',
    headerTitle: AVG_PRICE_NOTE,
    headerNode: (
      <>
        Avg Price<span className="block text-xs font-normal">incl. buy fees</span>
      </>
    ),
    cell: (p) => formatPrice(p.avg_price, p.symbol),
  },
  { header: 'Current Price', cell: (p) => (toNum(p.current_price) ? formatPrice(p.current_price, p.symbol) : 'N/A') },
  { header: 'Market Value', cell: (p) => formatMoney(p.current_value) },
  { header: 'Unrealized P&L', cell: (p) => formatSignedMoney(p.unrealized_pnl), className: (p) => pnlClass(p.unrealized_pnl) },
  { header: 'P&L %', cell: (p) => formatPercent(p.pnl_percentage), className: (p) => pnlClass(p.pnl_percentage) },
  { header: 'Stop-Loss / Take-Profit', cell: (p) => <ProtectionCell position={p} />, testId: 'position-protection', full: true },
];

export function PositionManager() {
  const positions = usePositions();
  const portfolio = usePortfolio();
  const navigate = useNavigate();
  const [closing, setClosing] = useState<Position | null>(null);
  const [trading, setTrading] = useState(false);

  if (positions.isPending) return <Spinner />;
  if (positions.isError) return <ErrorBox message={errorMessage(positions.error, 'Failed to fetch positions')} />;
  const list = positions.data.filter((p) => toNum(p.quantity) !== 0);
  const totals = list.reduce(
    (a, p) => ({ value: a.value + toNum(p.current_value), unrealized: a.unrealized + toNum(p.unrealized_pnl) }),
    { value: 0, unrealized: 0 },
  );
  // Realized P&L of the whole account, closed positions included (the open positions' own would leave those out).
  const realized = portfolio.data?.total_realized_pnl;
  const div = portfolio.data?.diversification;

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Total Value" value={formatMoney(totals.value)} />
        <Stat label="Unrealized P&L" value={formatSignedMoney(totals.unrealized)} valueClass={pnlClass(totals.unrealized)} />
        <Stat label="Active Positions" value={list.length} />
        <Stat label="Realized P&L" value={realized === undefined ? '—' : formatSignedMoney(realized)} valueClass={pnlClass(realized)} />
      </div>

      <Card title="Positions">
        {list.length === 0 ? (
          <div className="py-10 text-center">
            <p className="text-slate-500 dark:text-slate-400">No active positions</p>
            <button type="button" className={`${btn.primary} mt-4`} onClick={() => (window.location.pathname.startsWith('/trading/positions') ? navigate('/trading/trade') : setTrading(true))}>
              Start Trading
            </button>
          </div>
        ) : (
          <DataTable
            label="Positions"
            rows={list}
            columns={POSITION_COLUMNS}
            rowKey={(p) => p.symbol}
            rowTestId="position-row"
            actions={(p) => (
              <button type="button" className={btn.small} onClick={() => setClosing(p)}>
                Close
              </button>
            )}
            after={(p) => p.protection_reduced && <ReducedNotice notice={p.protection_reduced} />}
          />
        )}
      </Card>

      {div && div.symbols > 0 && (
        <Card title="Risk Metrics">
          <Row label="Assets held">{div.symbols}</Row>
          <Row label="Largest position">{formatShare(div.largest_position_percentage)}</Row>
          <Row label="Weekly P&L">
            <span className={pnlClass(portfolio.data?.weekly_pnl)}>{formatSignedMoney(portfolio.data?.weekly_pnl)}</span>
          </Row>
        </Card>
      )}

      {closing && <ClosePositionModal position={closing} onClose={() => setClosing(null)} />}
      {trading && (
        <Modal title="New Trade" onClose={() => setTrading(false)}>
          <TradingForm onExecuted={() => setTrading(false)} />
        </Modal>
      )}
    </div>
  );
}

type Level = Position['protection'][number];
type Notice = NonNullable<Position['protection_reduced']>;

const KIND_LABEL: Record<Level['kind'], string> = { stop_loss: 'SL', take_profit: 'TP' };

/**
 * The live SELL stops and limits guarding a position, each with its price and the quantity it covers (from the
 * exchange's live orders), and how much of the position no stop covers.
 */
export function ProtectionCell({ position }: { position: Position }) {
  const levels = position.protection;
  const stopped = levels.filter((l) => l.kind === 'stop_loss').reduce((a, l) => a + toNum(l.quantity), 0);
  const held = toNum(position.quantity);
  if (levels.length === 0) return <span className="text-amber-600 dark:text-amber-400">No stop</span>;
  return (
    <ul className="space-y-0.5 whitespace-nowrap text-xs">
      {levels.map((l) => (
        <li key={l.order_id} title={`${l.protective ? 'Protective order' : 'Your order'} ${l.order_id}`}>
          <span className={l.kind === 'stop_loss' ? 'font-semibold text-red-600 dark:text-red-400' : 'font-semibold text-emerald-600 dark:text-emerald-400'}>{KIND_LABEL[l.kind]}</span>{' '}
          {formatPrice(l.price, position.symbol)} × {formatQty(l.quantity)}
        </li>
      ))}
      {stopped < held && <li className="text-amber-600 dark:text-amber-400">{formatQty(held - stopped)} without a stop</li>}
    </ul>
  );
}

/** Says when Kestrel shrank or cancelled a protective order, by how much and why: protection never shrinks silently. */
export function ReducedNotice({ notice }: { notice: Notice }) {
  const what = notice.kind === 'stop_loss' ? 'stop-loss' : 'take-profit';
  const change = toNum(notice.to_quantity) === 0 ? `cancelled (it covered ${formatQty(notice.from_quantity)})` : `reduced from ${formatQty(notice.from_quantity)} to ${formatQty(notice.to_quantity)}`;
  return (
    <p role="status" data-testid="protection-reduced" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-800 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
      Protection reduced {formatDateTime(notice.at)}: the protective {what} {shortId(notice.order_id)} was {change} because {notice.reason}.
    </p>
  );
}

/** Closes all or part of a position with a market SELL tagged 'position_close'. */
export function ClosePositionModal({ position, onClose }: { position: Position; onClose: () => void }) {
  const [qty, setQty] = useState(String(Math.abs(toNum(position.quantity))));
  const [error, setError] = useState<string | null>(null);
  const [qtyError, setQtyError] = useState<string | null>(null);
  const refresh = useInvalidateTrading();
  const { retrying, onRetry, clear } = useRetrying();
  // One client order id per Close Position press; its repeats send the same id.
  const close = useMutation({
    mutationFn: (clientOrderId: string) =>
      sendWithRetry(
        () => api.post('/trading/execute', { symbol: position.symbol, action: 'SELL', quantity: qty, order_type: 'market', strategy: 'position_close', client_order_id: clientOrderId }),
        { onRetry },
      ),
    retry: 0,
    onSettled: clear,
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (err, clientOrderId) => setError(orderFailureMessage(err, clientOrderId, 'Failed to execute trade')),
  });
  const estimate = toNum(qty) * toNum(position.current_price);
  return (
    <Modal title={`Close Position: ${position.symbol}`} onClose={onClose}>
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!closeQuantityValid(qty, position)) {
            setQtyError('Invalid quantity');
            return;
          }
          setError(null);
          close.mutate(newClientOrderId());
        }}
      >
        <Row label="Position">{formatQty(position.quantity)}</Row>
        <Row label="Current Price">{formatPrice(position.current_price, position.symbol)}</Row>
        <div>
          <label htmlFor="close-qty" className="block text-sm font-medium">
            Quantity to close
          </label>
          <input
            id="close-qty"
            type="number"
            step="0.00000001"
            min="0"
            className={inputClass}
            value={qty}
            onChange={(e) => {
              setQty(e.target.value);
              setQtyError(null);
            }}
            aria-invalid={!!qtyError}
            aria-describedby={qtyError ? 'close-qty-error' : undefined}
          />
          {qtyError && (
            <p id="close-qty-error" className="mt-1 text-xs text-red-600 dark:text-red-400">
              {qtyError}
            </p>
          )}
        </div>
        <Row label="Est. Proceeds">{formatMoney(estimate)}</Row>
        <ErrorBox message={error} />
        <RetryingNote retrying={retrying} what="order (same client order id)" />
        <div className="flex justify-end gap-2">
          <button type="button" className={btn.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={btn.danger} disabled={close.isPending}>
            {close.isPending ? 'Processing...' : 'Close Position'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
