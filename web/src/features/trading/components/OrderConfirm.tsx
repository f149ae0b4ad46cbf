import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Row } from '@/components/Modal';
import { formatMoney, formatPrice, formatQty } from '@/lib/format';
import type { TradeInput } from '../api';

/** The figures a trade is confirmed with, as the form estimated them. */
export interface OrderFigures {
  /** The price the order is estimated at: the limit or stop price, or the ask (BUY) or bid (SELL) for the others. */
  price?: string;
  priceNote: string;
  total: string | null;
  fee: string | null;
  feeLabel: string;
}

export const TYPE_LABEL: Record<TradeInput['orderType'], string> = { market: 'Market', limit: 'Limit', stop_loss: 'Stop-Loss', trailing_stop: 'Trailing Stop' };

/** The in-app trade confirmation: what will be sent, with the estimated total and fee. */
export function OrderConfirm({ t, base, f, onConfirm, onCancel }: { t: TradeInput; base: string; f: OrderFigures; onConfirm: () => void; onCancel: () => void }) {
  const trail = t.trail ? (t.trailUnit === 'amount' ? formatPrice(t.trail, t.symbol) : `${t.trail}%`) : '';
  return (
    <ConfirmDialog title="Confirm Order" confirmLabel={`Confirm ${t.side}`} onConfirm={onConfirm} onCancel={onCancel}>
      <div data-testid="order-confirm" className="rounded border border-slate-200 p-3 dark:border-slate-800">
        <Row label="Side">
          <span className={t.side === 'BUY' ? 'text-emerald-600 dark:text-emerald-400' : 'text-red-600 dark:text-red-400'}>{t.side}</span>
        </Row>
        <Row label="Symbol">{t.symbol}</Row>
        <Row label="Type">{TYPE_LABEL[t.orderType]}</Row>
        <Row label="Quantity">
          {formatQty(t.quantity)} {base}
        </Row>
        {t.orderType === 'trailing_stop' && (
          <Row label="Trail">
            {trail}
            {t.activation ? ` from ${formatPrice(t.activation, t.symbol)}` : ''}
          </Row>
        )}
        <Row label={t.orderType === 'limit' ? 'Limit Price' : t.orderType === 'stop_loss' ? 'Stop Price' : 'Est. Price'}>
          {f.price ? formatPrice(f.price, t.symbol) : '—'}
          {f.priceNote && <span className="ml-1 text-xs font-normal text-slate-500 dark:text-slate-400">{f.priceNote}</span>}
        </Row>
        <Row label="Est. Total">{f.total ? formatMoney(f.total) : '—'}</Row>
        <Row label={f.feeLabel}>{f.fee ? formatMoney(f.fee) : '—'}</Row>
      </div>
    </ConfirmDialog>
  );
}

/** The form's running summary: action, quantity, price, total and the fee estimate. */
export function OrderSummary({ t, f, feeUnknown }: { t: TradeInput; f: OrderFigures; feeUnknown: boolean }) {
  const trailing = t.orderType === 'trailing_stop';
  const trail = t.trail ? (t.trailUnit === 'amount' ? formatPrice(t.trail, t.symbol) : `${t.trail}%`) : '—';
  return (
    <div className="rounded border border-slate-200 p-3 dark:border-slate-800" aria-label="Order summary">
      <h3 className="mb-1 text-sm font-semibold">Order Summary</h3>
      <Row label="Action">
        {t.side} {t.symbol}
      </Row>
      <Row label="Quantity">{t.quantity ? formatQty(t.quantity) : '—'}</Row>
      {trailing && <Row label="Trail">{trail}</Row>}
      <Row label={t.orderType === 'market' || trailing ? 'Est. Price' : t.orderType === 'limit' ? 'Limit Price' : 'Stop Price'}>
        {f.price ? formatPrice(f.price, t.symbol) : '—'}
        {f.price && f.priceNote && <span className="ml-1 text-xs font-normal text-slate-500 dark:text-slate-400">{f.priceNote}</span>}
      </Row>
      <Row label="Total">{f.total ? formatMoney(f.total) : '—'}</Row>
      <Row label={f.feeLabel}>
        <span data-testid="tf-fee">{f.fee ? formatMoney(f.fee) : feeUnknown ? 'Not published by the exchange' : '—'}</span>
      </Row>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        Estimates at {t.orderType === 'limit' || t.orderType === 'stop_loss' ? 'the entered price' : `the current ${t.side === 'BUY' ? 'ask' : 'bid'}`}, with the fee rate the exchange charges; the fill may differ.
      </p>
    </div>
  );
}
