import type { ReactNode } from 'react';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { useAnalytics } from '../api';
import { FAILED, UNABLE } from '../model';
import type { AnalyticsData, Period, Tab } from '../types';
import { TabError } from './common';

/** Loads one tab's figures for the period and symbol: a spinner, then the figures, or the error with Retry. */
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
  return <div className={q.isFetching ? 'opacity-70 transition-opacity' : ''}>{children(q.data)}</div>;
}
