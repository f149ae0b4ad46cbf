import { errorMessage } from '@/lib/api';
import { spanDays, type DataPeriod } from '@/lib/coverage';

/** Under a period's dates: what the store holds for the symbol, or that Run waits for it (or why it cannot). */
export function PeriodStatus({ period, className = '' }: { period: DataPeriod; className?: string }) {
  const base = `${className} text-xs`;
  if (period.failed)
    return (
      <p role="alert" className={`${base} text-red-600 dark:text-red-400`} data-testid="period-status">
        Failed to read which dates the market data covers: {errorMessage(period.error, 'no answer')}; Run waits for them.{' '}
        <button type="button" className="font-medium underline" onClick={period.retry}>
          Retry
        </button>
      </p>
    );
  if (!period.known)
    return (
      <p className={`${base} text-slate-500 dark:text-slate-400`} data-testid="period-status">
        Reading which dates the market data covers…
      </p>
    );
  if (!period.span) return null;
  const { first, last } = spanDays(period.span);
  return (
    <p className={`${base} text-slate-500 dark:text-slate-400`} data-testid="period-status">
      Between 7 and 365 days within the data ({first} to {last}); the default is its last three months.
    </p>
  );
}
