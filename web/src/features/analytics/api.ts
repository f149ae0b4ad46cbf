import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AnalyticsData, Period, Tab } from './types';
import { analyticsKeys } from '@/lib/queryKeys';

export { analyticsKeys };

/** GET /api/analytics/{tab}?period=&symbol= */
export function fetchAnalytics<T extends Tab>(tab: T, period: Period, symbol: string): Promise<AnalyticsData[T]> {
  // No symbol: all of them where the view allows it (trading), the default elsewhere.
  const q = new URLSearchParams(symbol ? { period, symbol } : { period });
  return api.get<AnalyticsData[T]>(`/analytics/${tab}?${q}`);
}

/** One tab's figures; a new period or symbol is a new query, so it refetches. */
export const analyticsQuery = <T extends Tab>(tab: T, period: Period, symbol: string) =>
  queryOptions({ queryKey: analyticsKeys.tab(tab, period, symbol), queryFn: () => fetchAnalytics(tab, period, symbol), staleTime: 60_000 });

export const useAnalytics = <T extends Tab>(tab: T, period: Period, symbol: string) => useQuery(analyticsQuery(tab, period, symbol));
