import { useEffect, useState } from 'react';
import { formatPrice, formatQty } from '@/lib/format';
import { useTradeNotifications } from '@/lib/prefs';
import type { Fill, Order } from '@/lib/types';
import { realtime } from '@/lib/useRealtime';

interface Toast {
  id: string;
  text: string;
  side: 'BUY' | 'SELL';
}

const SHOW_MS = 6000;

/** Bottom-right notices for fills as they happen (realtime), when trade notifications are on. */
export function FillToasts() {
  const enabled = useTradeNotifications();
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    if (!enabled) return;
    return realtime.onMessage((m) => {
      if (m.type !== 'trade_update') return;
      const { order, fill } = m.data as { order: Order; fill?: Fill };
      if (!fill) return;
      const text = `${order.status === 'filled' ? 'Filled' : 'Partly filled'}: ${fill.side} ${formatQty(fill.quantity)} ${fill.symbol} at ${formatPrice(fill.price, fill.symbol)}`;
      setToasts((t) => [...t.slice(-3), { id: fill.id, text, side: fill.side }]);
      setTimeout(() => setToasts((t) => t.filter((x) => x.id !== fill.id)), SHOW_MS);
    });
  }, [enabled]);
  if (toasts.length === 0) return null;
  return (
    <div className="pointer-events-none fixed bottom-4 right-4 z-30 flex w-80 flex-col gap-2" aria-live="polite" aria-label="Trade notifications">
      {toasts.map((t) => (
        <div
          key={t.id}
          role="status"
          className={`rounded-lg border-l-4 bg-white p-3 text-sm shadow-lg dark:bg-slate-900 ${t.side === 'BUY' ? 'border-emerald-500' : 'border-red-500'}`}
        >
          {t.text}
        </div>
      ))}
    </div>
  );
}
