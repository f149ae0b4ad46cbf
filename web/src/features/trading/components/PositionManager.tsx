import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorBox } from '@/components/Field';
import { RetryingNote, useRetrying } from '@/components/Retrying';
import { btn, inputClass, Modal, Row, Stat } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { api, errorMessage } from '@/lib/api';
import { formatPercent, formatPrice, formatQty, formatSignedMoney, formatMoney, pnlClass, toNum } from '@/lib/format';
import { newClientOrderId, orderFailureMessage, sendWithRetry } from '@/lib/retry';
import type { Position } from '@/lib/types';
import { useInvalidateTrading, usePortfolio, usePositions } from '../api';
import { TradingForm } from './TradingForm';

/** Spec: close-position quantity must be in (0, |qty|]. */
export function closeQuantityValid(input: string, position: Position): boolean {
  const q = Number(input);
  return input.trim() !== '' && Number.isFinite(q) && q > 0 && q <= Math.abs(toNum(position.quantity));
}

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
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-slate-500 dark:text-slate-400">
                <tr>
                  {['Symbol', 'Quantity', 'Avg Price', 'Current Price', 'Market Value', 'Unrealized P&L', 'P&L %', 'Actions'].map((h) => (
                    <th key={h} className="px-2 py-2 font-medium" title={h === 'Avg Price' ? AVG_PRICE_NOTE : undefined}>
                      {h}
                      {h === 'Avg Price' && <span className="block text-xs font-normal">incl. buy fees</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={p.symbol} className="border-t border-slate-100 tabular-nums dark:border-slate-800">
                    <td className="px-2 py-2 font-semibold">{p.symbol}</td>
                    <td className="px-2 py-2">{(toNum(p.quantity) > 0 ? '+' : '') + formatQty(p.quantity)}</td>
                    <td className="px-2 py-2">{formatPrice(p.avg_price)}</td>
                    <td className="px-2 py-2">{toNum(p.current_price) ? formatPrice(p.current_price) : 'N/A'}</td>
                    <td className="px-2 py-2">{formatMoney(p.current_value)}</td>
                    <td className={`px-2 py-2 ${pnlClass(p.unrealized_pnl)}`}>{formatSignedMoney(p.unrealized_pnl)}</td>
                    <td className={`px-2 py-2 ${pnlClass(p.pnl_percentage)}`}>{formatPercent(p.pnl_percentage)}</td>
                    <td className="px-2 py-2">
                      <button type="button" className={btn.small} onClick={() => setClosing(p)}>
                        Close
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      {div && div.symbols > 0 && (
        <Card title="Risk Metrics">
          <Row label="Assets held">{div.symbols}</Row>
          <Row label="Largest position">{toNum(div.largest_position_percentage).toFixed(1)}%</Row>
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

/** What the average price is: the position's cost basis per unit (average cost). */
const AVG_PRICE_NOTE = 'Average cost per unit: what the buys cost, their fees included, divided by the quantity held';

/** Closes all or part of a position with a market SELL tagged 'position_close'. */
export function ClosePositionModal({ position, onClose }: { position: Position; onClose: () => void }) {
  const [qty, setQty] = useState(String(Math.abs(toNum(position.quantity))));
  const [error, setError] = useState<string | null>(null);
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
            window.alert('Invalid quantity');
            return;
          }
          setError(null);
          close.mutate(newClientOrderId());
        }}
      >
        <Row label="Position">{formatQty(position.quantity)}</Row>
        <Row label="Current Price">{formatPrice(position.current_price)}</Row>
        <div>
          <label htmlFor="close-qty" className="block text-sm font-medium">
            Quantity to close
          </label>
          <input id="close-qty" type="number" step="0.00000001" min="0" className={inputClass} value={qty} onChange={(e) => setQty(e.target.value)} />
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
