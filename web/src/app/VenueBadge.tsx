import { useSystemStatus } from '@/features/trading/api';
import { useConnectionLost } from '@/lib/connection';

/**
 * Where orders go and on which prices ("Paper · live Coinbase prices"), from
 * the system status; greyed and marked last known while the server does not answer.
 */
export function VenueBadge() {
  const { data } = useSystemStatus();
  const lost = useConnectionLost();
  const venue = data?.market_data?.venue;
  if (!venue) return null;
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs ${lost !== null ? 'bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500' : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'}`}
      data-testid="venue-badge"
      data-stale={lost !== null}
    >
      {lost !== null ? `${venue} (last known)` : venue}
    </span>
  );
}
