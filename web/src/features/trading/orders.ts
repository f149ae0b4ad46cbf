import { formatMoney, formatQty, toNum } from '@/lib/format';
import type { Order } from '@/lib/types';

export function shortId(id: string): string {
  return '#' + id.slice(-8);
}

/** How an order is tied to others: the BUY it protects and the orders sharing its OCO group. */
export interface OrderLinks {
  protective: boolean;
  parentId?: string;
  /** Other orders of the same one-cancels-other group in the list. */
  siblings: string[];
  /** Protective orders in the list that guard this one's fill. */
  children: string[];
}

/** Links for every order of a list, by order id. */
export function orderLinks(orders: Order[]): Map<string, OrderLinks> {
  const groups = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  for (const o of orders) {
    if (o.group_id) groups.set(o.group_id, [...(groups.get(o.group_id) ?? []), o.id]);
    if (o.parent_order_id) children.set(o.parent_order_id, [...(children.get(o.parent_order_id) ?? []), o.id]);
  }
  return new Map(
    orders.map((o) => [
      o.id,
      {
        protective: !!(o.group_id || o.parent_order_id),
        parentId: o.parent_order_id || undefined,
        siblings: o.group_id ? (groups.get(o.group_id) ?? []).filter((id) => id !== o.id) : [],
        children: children.get(o.id) ?? [],
      },
    ]),
  );
}

/** What a resting order reserves: cash for buys, the base asset for sells; '—' when nothing. */
export function formatHold(o: Order): string {
  if (!o.hold || toNum(o.hold) === 0) return '—';
  if (o.side === 'BUY') return formatMoney(o.hold);
  return `${formatQty(o.hold)} ${o.symbol.split('-')[0]}`;
}
