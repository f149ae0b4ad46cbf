import { Card } from '@/components/Screen';
import { useConnectionLost } from '@/lib/connection';
import { formatPercent, formatPrice, pnlClass } from '@/lib/format';
import { useStats24h, useSystemStatus, useTicker } from '../api';
import { dayChange, staleNote } from '../watchlist';
import { useSymbols } from '@/lib/products';
import { Spinner } from '@/components/Spinner';

const GREY = 'text-slate-400 dark:text-slate-500';

/**
 * The product's markets with their live price (the ticker the socket keeps current) and 24-hour change; a row
 * switches the chart. Grey and marked last known while the server or its market feed does not answer.
 */
export function Watchlist({ selected, onSelect }: { selected: string; onSelect: (symbol: string) => void }) {
  const lost = useConnectionLost();
  const md = useSystemStatus().data?.market_data;
  const note = staleNote(lost, md?.status, md?.last_tick_age_seconds);
  const { symbols, loading } = useSymbols();
  return (
    <Card title="Watchlist">
      {note && (
        <p role="status" data-testid="watchlist-stale" className="mb-2 rounded border border-slate-300 bg-slate-100 p-2 text-xs text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300">
          {note}
        </p>
      )}
      {loading ? (
        <Spinner label="Loading markets..." />
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="watchlist">
          {symbols.map((s) => (
            <WatchRow key={s} symbol={s} selected={s === selected} stale={note !== null} onSelect={onSelect} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function WatchRow({ symbol, selected, stale, onSelect }: { symbol: string; selected: boolean; stale: boolean; onSelect: (symbol: string) => void }) {
  const ticker = useTicker(symbol);
  const stats = useStats24h(symbol);
  const change = dayChange(ticker.data?.price, stats.data?.open);
  const grey = stale || ticker.isError;
  return (
    <li>
      <button
        type="button"
        aria-pressed={selected}
        onClick={() => onSelect(symbol)}
        data-testid={`watch-${symbol}`}
        data-stale={grey ? 'true' : 'false'}
        className={`flex w-full items-center justify-between gap-2 rounded px-2 py-2 text-left text-sm tabular-nums hover:bg-slate-50 dark:hover:bg-slate-800 ${selected ? 'bg-blue-50 dark:bg-blue-950' : ''}`}
      >
        <span className="font-semibold">{symbol}</span>
        <span className="text-right">
          <span className={`block ${grey ? GREY : ''}`} data-testid="watch-price">
            {ticker.data ? formatPrice(ticker.data.price, symbol) : '—'}
            {grey && ticker.data && <span className="ml-1 text-xs">(last known)</span>}
          </span>
          <span className={`block text-xs ${grey ? GREY : pnlClass(change?.percent)}`} title="Change over 24 hours">
            {change ? `${formatPercent(change.percent)} 24h` : '24h —'}
          </span>
        </span>
      </button>
    </li>
  );
}
