import type { ReactNode } from 'react';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { useAnalytics } from '../api';
import { coverageNote, FAILED, UNABLE } from '../model';
import type { AnalyticsData, Period, Tab } from '../types';
import { TabError } from './common';

/** Loads one tab's figures for the period and symbol: a spinner, then the figures (saying when their data covers less than the period), or the error with Retry. */
export function Panel<T extends Tab>({ tab, period, symbol, children }: { tab: T; period: Period; symbol: string; children: (data: AnalyticsData[T]) => ReactNode }) {
  const q = useAnalytics(tab, period, symbol);
  if (q.isPending) return <Spinner label="Loading analytics..." />;
  if (q.isError) return <TabError message={FAILED[tab]} error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) {
    return (
      <Card>
        <p className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">{UNABLE[tab]}</p>
      </Card>
    );
  }
  const note = coverageNote(q.data.coverage, period);
  return (
    <div className={q.isFetching ? 'opacity-70 transition-opacity' : ''}>
      {note && (
        <p role="note" data-testid="coverage-note" className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
          {note}
        </p>
      )}
      {children(q.data)}
    </div>
  );
}
