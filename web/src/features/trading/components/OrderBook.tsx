import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { components } from '@/api/schema';
import { Card } from '@/components/Screen';
import { ErrorBox } from '@/components/Field';
import { api, errorMessage } from '@/lib/api';
import { formatDateTime, formatPrice, formatQty, toNum } from '@/lib/format';
import { realtime } from '@/lib/useRealtime';
import { maxOf, minOf } from '@/lib/extent';
import { marketKeys } from '@/lib/queryKeys';
import { useSymbolChoices } from '@/lib/products';

export type Book = components['schemas']['OrderBook'];
type Level = Book['bids'][number];

/** Levels a side the ladder shows (the book carries up to 25; the depth chart uses them all). */
const LADDER = 12;

const bookKey = marketKeys.orderbook;

// The orderbook channel is shared between mounted views: the last to unmount unsubscribes.
let bookStreamUsers = 0;

/**
 * Coinbase's level2 book for a symbol while the market is live: a depth ladder and a depth chart, first read
 * over REST, then kept current by the WebSocket's orderbook channel (at most twice a second). On the replay
 * the server says there is no book and why, and that is what shows.
 */
export function OrderBook() {
  const [symbol, setSymbol] = useState('BTC-USD');
  const symbols = useSymbolChoices(symbol);
  const qc = useQueryClient();
  const book = useQuery({ queryKey: bookKey(symbol), queryFn: () => api.get<Book>(`/market-data/orderbook/${symbol}`) });
  useEffect(() => {
    const off = realtime.onMessage((m) => {
      const b = m.data as Book | null;
      if (m.type === 'orderbook' && b?.symbol) qc.setQueryData(bookKey(b.symbol), b);
    });
    if (bookStreamUsers++ === 0) realtime.subscribe(['orderbook']);
    return () => {
      off();
      if (--bookStreamUsers === 0) realtime.unsubscribe(['orderbook']);
    };
  }, [qc]);

  const b = book.data;
  return (
    <Card title="Order book" className="mt-4">
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-2">
          <span className="text-xs font-medium">Symbol</span>
          <select className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800" value={symbol} onChange={(e) => setSymbol(e.target.value)} aria-label="Order book symbol">
            {symbols.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        {b?.available && (
          <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="ob-source">
            {b.source} · {formatDateTime(b.time)}
          </span>
        )}
      </div>
      {book.isError && <ErrorBox message={errorMessage(book.error, 'Could not load the order book')} />}
      {b && !b.available && (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="ob-absent">
          {b.reason}
        </p>
      )}
      {b?.available && (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="ob-view">
          <Ladder bids={b.bids.slice(0, LADDER)} asks={b.asks.slice(0, LADDER)} symbol={symbol} />
          <DepthChart bids={b.bids} asks={b.asks} symbol={symbol} />
        </div>
      )}
    </Card>
  );
}

/** Running totals of size from the best level outwards. */
function cumulative(levels: Level[]): { price: number; size: number; total: number }[] {
  let total = 0;
  return levels.map((l) => {
    total += toNum(l.size);
    return { price: toNum(l.price), size: toNum(l.size), total };
  });
}

function Ladder({ bids, asks, symbol }: { bids: Level[]; asks: Level[]; symbol: string }) {
  const bestBid = bids[0] ? toNum(bids[0].price) : null;
  const bestAsk = asks[0] ? toNum(asks[0].price) : null;
  const maxSize = maxOf([...bids, ...asks].map((l) => toNum(l.size)), 0);
  const row = (l: Level, side: 'bid' | 'ask') => {
    const w = maxSize > 0 ? (toNum(l.size) / maxSize) * 100 : 0;
    return (
      <tr key={`${side}${l.price}`} className="relative">
        <td className={`px-2 py-0.5 tabular-nums ${side === 'bid' ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}>{formatPrice(l.price, symbol)}</td>
        <td className="relative px-2 py-0.5 text-right tabular-nums">
          <span className={`absolute inset-y-0 right-0 ${side === 'bid' ? 'bg-emerald-500/15' : 'bg-red-500/15'}`} style={{ width: `${w}%` }} aria-hidden />
          <span className="relative">{formatQty(l.size)}</span>
        </td>
      </tr>
    );
  };
  return (
    <table className="w-full text-xs" data-testid="ob-ladder" aria-label="Depth ladder">
      <thead>
        <tr className="text-slate-500 dark:text-slate-400">
          <th className="px-2 py-1 text-left font-medium">Price</th>
          <th className="px-2 py-1 text-right font-medium">Size</th>
        </tr>
      </thead>
      <tbody>
        {[...asks].reverse().map((l) => row(l, 'ask'))}
        <tr>
          <td colSpan={2} className="border-y border-slate-200 px-2 py-1 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300" data-testid="ob-spread">
            {bestBid !== null && bestAsk !== null ? `Spread ${formatPrice(bestAsk - bestBid, symbol)}` : 'One side of the book is empty'}
          </td>
        </tr>
        {bids.map((l) => row(l, 'bid'))}
      </tbody>
    </table>
  );
}

/** Cumulative size against price: bids stepping down to the left of the mid, asks up to the right. */
function DepthChart({ bids, asks, symbol }: { bids: Level[]; asks: Level[]; symbol: string }) {
  const cb = cumulative(bids);
  const ca = cumulative(asks);
  const W = 320;
  const H = 180;
  const pad = 4;
  const prices = [...cb, ...ca].map((p) => p.price);
  if (prices.length === 0) return <p className="text-sm text-slate-500">The book is empty.</p>;
  const lo = minOf(prices);
  const hi = maxOf(prices);
  const top = Math.max(cb.at(-1)?.total ?? 0, ca.at(-1)?.total ?? 0) || 1;
  const x = (p: number) => (hi === lo ? W / 2 : pad + ((p - lo) / (hi - lo)) * (W - 2 * pad));
  const y = (v: number) => H - pad - (v / top) * (H - 2 * pad);
  // Each level holds its running total until the next price: a step line, closed down to the axis.
  const area = (pts: { price: number; total: number }[]) => {
    if (pts.length === 0) return '';
    let d = `M${x(pts[0]!.price)},${y(0)}`;
    let prev = 0;
    for (const p of pts) {
      d += ` L${x(p.price)},${y(prev)} L${x(p.price)},${y(p.total)}`;
      prev = p.total;
    }
    return `${d} L${x(pts.at(-1)!.price)},${y(0)} Z`;
  };
  return (
    <figure data-testid="ob-depth">
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-44 w-full" role="img" aria-label="Depth chart">
        <path d={area(cb)} className="fill-emerald-500/25 stroke-emerald-600" strokeWidth={1} vectorEffect="non-scaling-stroke" />
        <path d={area(ca)} className="fill-red-500/25 stroke-red-600" strokeWidth={1} vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-500 dark:text-slate-400">
        <span>{formatPrice(lo, symbol)}</span>
        <span>
          depth to {formatQty(String(top))} (bids {formatQty(String(cb.at(-1)?.total ?? 0))}, asks {formatQty(String(ca.at(-1)?.total ?? 0))})
        </span>
        <span>{formatPrice(hi, symbol)}</span>
      </figcaption>
    </figure>
  );
}
