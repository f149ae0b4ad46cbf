import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Sweep, SweepRequest, SweepSummary } from './types';
import { researchKeys } from '@/lib/queryKeys';

/** How often a sweep under way is read again. */
export const SWEEP_POLL_MS = 1000;

const done = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';

export { researchKeys };

export const researchApi = {
  submit: (ask: SweepRequest) => api.post<{ id: string; status: string }>('/sweeps', ask),
  list: () => api.get<SweepSummary[]>('/sweeps'),
  get: (id: string) => api.get<Sweep>(`/sweeps/${encodeURIComponent(id)}`),
  cancel: (id: string) => api.post<{ id: string; status: string }>(`/sweeps/${encodeURIComponent(id)}/cancel`),
  /** Saves parameters as a new version of a strategy (never overwrites one). */
  saveVersion: (name: string, body: { params: Record<string, unknown>; note: string; parent: number | null }) =>
    api.post<unknown>(`/strategy/versions/${encodeURIComponent(name)}`, body),
};

export const researchQueries = {
  list: () => queryOptions({ queryKey: researchKeys.list, queryFn: researchApi.list, refetchInterval: (q) => (q.state.data?.some((s) => !done(s.status)) ? SWEEP_POLL_MS : false) }),
  one: (id: string) =>
    queryOptions({
      queryKey: researchKeys.one(id),
      queryFn: () => researchApi.get(id),
      staleTime: (q) => (q.state.data && done(q.state.data.status) ? Infinity : 0),
      refetchInterval: (q) => (q.state.data && done(q.state.data.status) ? false : SWEEP_POLL_MS),
    }),
};

export const useSweeps = () => useQuery(researchQueries.list());
export const useSweep = (id: string | null) => useQuery({ ...researchQueries.one(id ?? ''), enabled: !!id });
export const sweepDone = done;

export function useSubmitSweep() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: researchApi.submit, retry: 0, onSettled: () => void qc.invalidateQueries({ queryKey: researchKeys.list }) });
}

export function useCancelSweep() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: researchApi.cancel,
    retry: 0,
    onSettled: (_d, _e, id) => {
      void qc.invalidateQueries({ queryKey: researchKeys.one(id) });
      void qc.invalidateQueries({ queryKey: researchKeys.list });
    },
  });
}

export function useSaveVersion() {
  return useMutation({ mutationFn: (v: { name: string; body: { params: Record<string, unknown>; note: string; parent: number | null } }) => researchApi.saveVersion(v.name, v.body), retry: 0 });
}
