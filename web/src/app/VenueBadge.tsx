import { useSystemStatus } from '@/features/trading/api';

/** Where orders go and on which prices ("Paper · live Coinbase prices"), from the system status. */
export function VenueBadge() {
  const { data } = useSystemStatus();
  const venue = data?.market_data?.venue;
  if (!venue) return null;
  return (
    <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300" data-testid="venue-badge">
      {venue}
    </span>
  );
}
