import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { BacktestAsk, BacktestReport, BacktestRun, LiveEstimate, PeriodCandle } from './backtestTypes';
import { CHART_CANDLES, isEstimate } from './backtestModel';

/** How many past runs the history lists. */
export const HISTORY_LIMIT = 20;

export const backtestKeys = {
  all: ['backtests'] as const,
  list: ['backtests', 'list'] as const,
  one: (id: string) => ['backtests', 'run', id] as const,
  candles: (symbol: string, granularity: string, start: string, end: string) => ['backtests', 'candles', symbol, granularity, start, end] as const,
};

/** Fetchers: one per endpoint. */
export const backtestApi = {
  /** A report, or for a live-model run not yet confirmed, its estimate. */
  run: (ask: BacktestAsk) => api.post<BacktestReport | LiveEstimate>('/backtests', ask),
  list: () => api.get<{ backtests: BacktestRun[] }>(`/backtests?limit=${HISTORY_LIMIT}`).then((d) => d.backtests),
  get: (id: string) => api.get<BacktestReport>(`/backtests/${encodeURIComponent(id)}`),
  candles: (symbol: string, granularity: string, start: string, end: string) => {
    const q = new URLSearchParams({ granularity, start_date: start, end_date: end, limit: String(CHART_CANDLES) });
    return api.get<{ candles: PeriodCandle[] }>(`/market-data/historical/${encodeURIComponent(symbol)}?${q}`).then((d) => d.candles);
  },
};

/** Query options, shared by the hooks and by tests. A stored run never changes. */
export const backtestQueries = {
  list: () => queryOptions({ queryKey: backtestKeys.list, queryFn: backtestApi.list, staleTime: 0 }),
  one: (id: string) => queryOptions({ queryKey: backtestKeys.one(id), queryFn: () => backtestApi.get(id), staleTime: Infinity }),
  candles: (symbol: string, granularity: string, start: string, end: string) =>
    queryOptions({ queryKey: backtestKeys.candles(symbol, granularity, start, end), queryFn: () => backtestApi.candles(symbol, granularity, start, end), staleTime: Infinity }),
};

export const useBacktestRuns = () => useQuery(backtestQueries.list());
export const useBacktest = (id: string | null) => useQuery({ ...backtestQueries.one(id ?? ''), enabled: !!id });
export const usePeriodCandles = (symbol: string, granularity: string, start: string, end: string) => useQuery(backtestQueries.candles(symbol, granularity, start, end));

/** Two stored runs, for the comparison. */
export function useBacktestPair(ids: [string, string]) {
  return useQueries({ queries: ids.map((id) => backtestQueries.one(id)) });
}

/** Runs a backtest; the report is cached under its id and the history refreshed (an estimate is neither). */
export function useRunBacktest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: backtestApi.run,
    retry: 0,
    onSuccess: (rep) => {
      if (!isEstimate(rep)) qc.setQueryData(backtestKeys.one(rep.id), rep);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: backtestKeys.list }),
  });
}
