import { useEffect, useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { RetryingNote, useRetrying } from '@/components/Retrying';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { btn, inputClass, Modal, Row } from '@/components/Modal';
import { DataTable, type Column } from '@/components/DataTable';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { formatDateTime, formatPrice, formatQty } from '@/lib/format';
import type { Order, OrderStatus } from '@/lib/types';
import { useCancelOrder, useModifyOrder, useOrders, useProduct, useTicker } from '../api';
import { strategyLabel } from '../history';
import { formatHold, orderLinks, shortId, type OrderLinks } from '../orders';
import { validateModify } from '../validate';

export const CANCEL_CONFIRM = 'Are you sure you want to cancel this order?';
export const MODIFY_EMPTY = 'Please provide at least one field to modify';

const FILTERS: { label: string; value: OrderStatus | '' }[] = [
  { label: 'All', value: '' },
  { label: 'Pending', value: 'pending' },
  { label: 'Open', value: 'open' },
  { label: 'Filled', value: 'filled' },
  { label: 'Cancelled', value: 'cancelled' },
];

const STATUS_ICON: Record<OrderStatus, { icon: string; cls: string }> = {
  pending: { icon: '⏳', cls: 'text-amber-600 dark:text-amber-400' },
  open: { icon: '◔', cls: 'text-blue-600 dark:text-blue-400' },
  filled: { icon: '✔', cls: 'text-emerald-600 dark:text-emerald-400' },
  cancelled: { icon: '✖', cls: 'text-slate-500' },
  rejected: { icon: '⚠', cls: 'text-red-600 dark:text-red-400' },
};

const TYPE_LABEL = { market: 'Market', limit: 'Limit', stop_loss: 'Stop-Loss', trailing_stop: 'Trailing Stop' } as const;

/** A trailing stop's trail as the Type column shows it: '2%' or '$500.00', and its activation price when it has not trailed yet. */
export function trailNote(o: Order): string | null {
  const t = o.trail;
  if (!t) return null;
  const dist = t.trail_percent ? `${t.trail_percent}%` : t.trail_amount ? formatPrice(t.trail_amount, o.symbol) : '';
  return t.extreme_price ? `trails ${dist} from ${formatPrice(t.extreme_price, o.symbol)}` : `${dist}, from ${t.activation_price ? formatPrice(t.activation_price, o.symbol) : 'the market'}`;
}

/** Price column: the limit or stop price; for a market order, its average fill price once it filled, else 'Market'. */
export function orderPrice(o: Order): string {
  const p = o.price ?? o.stop_price ?? o.average_fill_price;
  return p ? formatPrice(p, o.symbol) : 'Market';
}

/**
 * Whether the signed-in user may change o: traders their own orders, operators
 * any (the server refuses the rest with 403). Unknown until /auth/me answers.
 */
export function mayChange(o: Order, me: { id: string; role: string } | undefined): boolean {
  return !me || me.role === 'operator' || o.user_id === me.id;
}

/** The Orders columns (a table at md and up, a card per order on a phone). */
function orderColumns(links: Map<string, OrderLinks>): Column<Order>[] {
  return [
    {
      header: 'Order ID',
      cell: (o) => (
        <>
          <span className="font-mono" title={o.id}>
            {shortId(o.id)}
          </span>
          <LinkNote links={links.get(o.id)} />
        </>
      ),
    },
    { header: 'Symbol', cell: (o) => o.symbol, title: true },
    { header: 'Side', cell: (o) => o.side, title: true, className: (o) => `font-semibold ${o.side === 'BUY' ? 'text-emerald-600' : 'text-red-600'}` },
    {
      header: 'Type',
      cell: (o) => (
        <>
          {TYPE_LABEL[o.order_type]}
          {trailNote(o) && (
            <span className="block text-xs text-slate-500 dark:text-slate-400" data-testid="trail-note">
              {trailNote(o)}
            </span>
          )}
        </>
      ),
    },
    { header: 'Quantity', cell: (o) => formatQty(o.quantity) },
    { header: 'Price', cell: (o) => orderPrice(o) },
    { header: 'Hold', cell: (o) => formatHold(o), nowrap: true },
    {
      header: 'Status',
      cell: (o) => (
        <span title={o.reject_reason}>
          <span aria-hidden="true">{(STATUS_ICON[o.status] ?? STATUS_ICON.pending).icon}</span> {o.status}
        </span>
      ),
      className: (o) => (STATUS_ICON[o.status] ?? STATUS_ICON.pending).cls,
    },
    { header: 'Strategy', cell: (o) => strategyLabel(o.strategy), testId: 'order-strategy' },
    { header: 'Created', cell: (o) => formatDateTime(o.created_at) },
  ];
}

export function OrderManagement() {
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const orders = useOrders(status);
  const me = useMe().data;
  const { retrying, onRetry } = useRetrying();
  const cancel = useCancelOrder(onRetry);
  const [modifying, setModifying] = useState<Order | null>(null);
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const [error, setError] = useState<string | null>(null);
  const links = orderLinks(orders.data ?? []);

  useEffect(() => {
    if (!error) return;
    const id = setTimeout(() => setError(null), 5000);
    return () => clearTimeout(id);
  }, [error]);

  return (
    <Card
      title={
        <span className="flex items-center justify-between gap-4 normal-case">
          <span className="uppercase">Orders</span>
          <label className="flex items-center gap-2 text-sm font-normal tracking-normal">
            Status
            <select aria-label="Status filter" className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800" value={status} onChange={(e) => setStatus(e.target.value as OrderStatus | '')}>
              {FILTERS.map((f) => (
                <option key={f.label} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
        </span>
      }
    >
      <ErrorBox message={error ?? (orders.isError ? errorMessage(orders.error, 'Failed to fetch orders') : null)} />
      {cancel.isPending && <RetryingNote retrying={retrying} what="cancel" />}
      {orders.isPending ? (
        <Spinner />
      ) : !orders.data || orders.data.length === 0 ? (
        <p className="py-10 text-center text-slate-500 dark:text-slate-400">No orders found</p>
      ) : (
        <DataTable
          label="Orders"
          rows={orders.data}
          columns={orderColumns(links)}
          rowKey={(o) => o.id}
          rowTestId="order-row"
          actions={(o) => {
            if (!((o.status === 'pending' || o.status === 'open') && mayChange(o, me))) return null;
            return (
              <>
                {o.order_type !== 'market' && (
                  <button type="button" className={btn.small} onClick={() => setModifying(o)}>
                    Modify
                  </button>
                )}
                <button type="button" className={btn.small} disabled={cancel.isPending} onClick={() => setCancelling(o)}>
                  Cancel
                </button>
              </>
            );
          }}
        />
      )}
      {modifying && <ModifyOrderModal order={modifying} onClose={() => setModifying(null)} />}
      {cancelling && (
        <ConfirmDialog
          title="Cancel Order"
          message={CANCEL_CONFIRM}
          confirmLabel="Cancel order"
          cancelLabel="Keep order"
          danger
          onCancel={() => setCancelling(null)}
          onConfirm={() => {
            setCancelling(null);
            cancel.mutate(cancelling.id, { onError: (err) => setError(errorMessage(err, 'Failed to cancel order')) });
          }}
        >
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400" data-testid="cancel-order-what">
            {cancelling.side} {formatQty(cancelling.quantity)} {cancelling.symbol} {cancelling.order_type.replace('_', '-')} {orderPrice(cancelling)} (#{cancelling.id.slice(-8)})
          </p>
        </ConfirmDialog>
      )}
    </Card>
  );
}

const badge = 'rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide';

/** Marks protective orders: the BUY they guard and the orders they cancel (one-cancels-other). */
function LinkNote({ links }: { links?: OrderLinks }) {
  if (!links) return null;
  if (!links.protective) {
    if (links.children.length === 0) return null;
    return (
      <div className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="order-links">
        Protected by {links.children.map(shortId).join(', ')}
      </div>
    );
  }
  return (
    <div className="mt-1 space-y-0.5 text-xs text-slate-500 dark:text-slate-400" data-testid="order-links">
      <div className="flex flex-wrap gap-1">
        <span className={`${badge} bg-indigo-100 text-indigo-800 dark:bg-indigo-900 dark:text-indigo-200`}>Protective</span>
        {links.siblings.length > 0 && <span className={`${badge} bg-violet-100 text-violet-800 dark:bg-violet-900 dark:text-violet-200`}>OCO</span>}
      </div>
      {links.siblings.length > 0 && <div>OCO with {links.siblings.map(shortId).join(', ')}</div>}
      {links.parentId && <div title={links.parentId}>Parent order {shortId(links.parentId)}</div>}
    </div>
  );
}

/**
 * Changes quantity and/or price (a limit's price, a stop's stop price); empty fields keep their current values. A
 * stop is changed in place: the server never leaves the position without a stop while it moves (docs/FEATURES.md, docs/COINBASE.md).
 */
export function ModifyOrderModal({ order, onClose }: { order: Order; onClose: () => void }) {
  const [qty, setQty] = useState('');
  const [price, setPrice] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  const { retrying, onRetry } = useRetrying();
  const modify = useModifyOrder(onRetry);
  const product = useProduct(order.symbol);
  const ticker = useTicker(order.symbol);
  const isStop = order.order_type === 'stop_loss';
  const trailing = order.order_type === 'trailing_stop';
  const priceLabel = isStop ? 'New Stop Price' : 'New Price';
  const fieldError = (key: string) => errors[key] && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors[key]}</p>;
  return (
    <Modal title={`Modify ${isStop ? 'Stop' : 'Order'} ${shortId(order.id)}`} onClose={onClose}>
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (qty.trim() === '' && price.trim() === '') {
            setEmpty(true);
            return;
          }
          setEmpty(false);
          const v = validateModify(qty, price, product, isStop ? { side: order.side, last: ticker.data?.price } : undefined);
          setErrors(v);
          if (Object.keys(v).length > 0) return;
          setError(null);
          const p = price.trim() || undefined;
          modify.mutate(
            { id: order.id, quantity: qty.trim() || undefined, ...(isStop ? { stopPrice: p } : { price: p }) },
            {
              onSuccess: onClose,
              onError: (err) => {
                // Field errors from the server go under their inputs; the rest above the buttons.
                const f = err instanceof ApiError ? err.fields : undefined;
                if (f && Object.keys(f).length > 0) {
                  setErrors({ quantity: f.quantity ?? '', price: f.stop_price ?? f.price ?? '' });
                  if (!f.quantity && !f.stop_price && !f.price) setError(errorMessage(err, 'Failed to modify order'));
                } else setError(errorMessage(err, 'Failed to modify order'));
              },
            },
          );
        }}
      >
        <Row label="Current">
          {order.side} {formatQty(order.quantity)} {order.symbol} {isStop ? 'stop at' : '@'} {orderPrice(order)}
        </Row>
        {isStop && ticker.data && (
          <Row label="Market price">
            <span data-testid="modify-market">{formatPrice(ticker.data.price, order.symbol)}</span>
          </Row>
        )}
        {order.parent_order_id && <p className="text-xs text-slate-500 dark:text-slate-400">This is a protective order; it stays linked to its BUY and its one-cancels-other group.</p>}
        <div>
          <label htmlFor="mod-qty" className="block text-sm font-medium">
            New Quantity
          </label>
          <input
            id="mod-qty"
            type="number"
            inputMode="decimal"
            step={product?.base_increment ?? '0.00000001'}
            min="0"
            placeholder={order.quantity}
            className={inputClass}
            value={qty}
            aria-invalid={!!errors.quantity}
            onChange={(e) => setQty(e.target.value)}
          />
          {fieldError('quantity')}
        </div>
        {trailing ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">A trailing stop&apos;s stop price follows the market ({trailNote(order)}): only its quantity can be changed.</p>
        ) : (
          <div>
            <label htmlFor="mod-price" className="block text-sm font-medium">
              {priceLabel}
            </label>
            <input
              id="mod-price"
              type="number"
              inputMode="decimal"
              step={product?.price_increment ?? 'any'}
              min="0"
              placeholder={(isStop ? order.stop_price : order.price) ?? ''}
              className={inputClass}
              value={price}
              aria-invalid={!!errors.price}
              onChange={(e) => setPrice(e.target.value)}
            />
            {fieldError('price')}
          </div>
        )}
        {empty && <p className="text-sm text-red-600 dark:text-red-400">{MODIFY_EMPTY}</p>}
        <ErrorBox message={error} />
        {modify.isPending && <RetryingNote retrying={retrying} what="modification" />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btn.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={btn.primary} disabled={modify.isPending}>
            {modify.isPending ? 'Saving...' : isStop ? 'Modify Stop' : 'Modify Order'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
