import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api';
import { realtime } from '@/lib/useRealtime';
import type { BacktestAsk, BacktestJob, BacktestRun, Job, LiveEstimate, PeriodCandle, QueuedBacktest } from './types';
import { CHART_CANDLES, isFinished } from './model';
import { backtestKeys } from '@/lib/queryKeys';

/** How many past runs the history lists. */
export const HISTORY_LIMIT = 20;

/** How often a queued or running backtest is read again (the WebSocket's jobs channel brings its progress sooner). */
export const POLL_MS = 1000;

export { backtestKeys };

/** Fetchers: one per endpoint. */
export const backtestApi = {
  /** Queues a run (202 {id, status}), or for a live-model run not yet confirmed, answers its estimate. */
  run: (ask: BacktestAsk) => api.post<QueuedBacktest | LiveEstimate>('/backtests', ask),
  list: () => api.get<{ backtests: BacktestRun[] }>(`/backtests?limit=${HISTORY_LIMIT}`).then((d) => d.backtests),
  get: (id: string) => api.get<BacktestJob>(`/backtests/${encodeURIComponent(id)}`),
  cancel: (id: string) => api.post<BacktestJob>(`/backtests/${encodeURIComponent(id)}/cancel`),
  candles: (symbol: string, granularity: string, start: string, end: string) => {
    const q = new URLSearchParams({ granularity, start_date: start, end_date: end, limit: String(CHART_CANDLES) });
    return api.get<{ candles: PeriodCandle[] }>(`/market-data/historical/${encodeURIComponent(symbol)}?${q}`).then((d) => d.candles);
  },
};

/** Query options, shared by the hooks and by tests. A finished run never changes; one under way is read again until it ends. */
export const backtestQueries = {
  list: () =>
    queryOptions({
      queryKey: backtestKeys.list,
      queryFn: backtestApi.list,
      staleTime: 0,
      refetchInterval: (q) => (q.state.data?.some((r) => !isFinished(r.status)) ? POLL_MS : false),
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: backtestKeys.one(id),
      queryFn: () => backtestApi.get(id),
      staleTime: (q) => (q.state.data && isFinished(q.state.data.status) ? Infinity : 0),
      refetchInterval: (q) => (q.state.data && isFinished(q.state.data.status) ? false : POLL_MS),
    }),
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

/** Queues a backtest; the history is refreshed (an estimate queues nothing). */
export function useRunBacktest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: backtestApi.run,
    retry: 0,
    onSettled: () => void qc.invalidateQueries({ queryKey: backtestKeys.list }),
  });
}

/** Cancels a queued or running backtest. */
export function useCancelBacktest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: backtestApi.cancel,
    retry: 0,
    onSuccess: (job) => qc.setQueryData(backtestKeys.one(job.id), job),
    onSettled: (_d, _e, id) => {
      void qc.invalidateQueries({ queryKey: backtestKeys.one(id) });
      void qc.invalidateQueries({ queryKey: backtestKeys.list });
    },
  });
}

let jobUsers = 0;

/**
 * Follows the WebSocket's jobs channel while mounted: a backtest's progress
 * updates its cached status at once; a finished one is read again (for its
 * report) and the history refreshed.
 */
export function useJobStream(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.onMessage((m) => {
      if (m.type !== 'job_update' || !m.data || typeof m.data !== 'object') return;
      const j = m.data as Job;
      if (j.kind !== 'backtest') return;
      const key = backtestKeys.one(j.id);
      if (isFinished(j.status)) {
        void qc.invalidateQueries({ queryKey: key });
        void qc.invalidateQueries({ queryKey: backtestKeys.list });
        return;
      }
      qc.setQueryData<BacktestJob>(key, (old) => (old && !isFinished(old.status) ? { ...old, status: j.status, progress: j.progress } : old));
      qc.setQueryData<BacktestRun[]>(backtestKeys.list, (old) => old?.map((r) => (r.id === j.id && !isFinished(r.status) ? { ...r, status: j.status, progress: j.progress } : r)));
    });
    if (jobUsers++ === 0) realtime.subscribe(['jobs']);
    return () => {
      off();
      if (--jobUsers === 0) realtime.unsubscribe(['jobs']);
    };
  }, [qc]);
}
