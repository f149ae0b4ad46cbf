import { queryOptions, useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { realtime } from '@/lib/useRealtime';
import type { AIPerformance, EvalFilters, Evaluation, IndicatorReading, PromptPreview, Strategy, StrategyConfig, StrategyPerformance, StrategyTypeInfo } from './types';
import { strategyKeys, versionKeys } from '@/lib/queryKeys';

export const TECHNICAL_NAME = 'technical_strategy';
export const AI_NAME = 'ai_strategy';
/** The spec's list limit (section 9). */
export const LIST_LIMIT = 100;
const POLL = 10_000;

export { strategyKeys };

function query(f: Partial<EvalFilters>, limit = LIST_LIMIT): string {
  const q = new URLSearchParams();
  if (f.symbol) q.set('symbol', f.symbol);
  if (f.strategy) q.set('strategy_name', f.strategy);
  if (f.executed) q.set('executed', f.executed);
  q.set('limit', String(limit));
  return q.toString();
}

/** Fetchers: one per endpoint. */
export const strategyApi = {
  list: () => api.get<{ strategies: Strategy[] }>('/strategy/list').then((d) => d.strategies),
  types: () => api.get<{ types: StrategyTypeInfo[] }>('/strategy/types').then((d) => d.types),
  create: (v: { name: string; type: string }) => api.post<{ strategy: StrategyConfig }>('/strategy', v).then((d) => d.strategy),
  setEnabled: (name: string, on: boolean) =>
    api.post<{ name: string; enabled: boolean; strategy: StrategyConfig }>(`/strategy/${encodeURIComponent(name)}/${on ? 'enable' : 'disable'}`),
  config: (name: string) => api.get<StrategyConfig>(`/strategy/config/${encodeURIComponent(name)}`),
  saveConfig: (name: string, c: Partial<StrategyConfig>) => api.put<StrategyConfig>(`/strategy/config/${encodeURIComponent(name)}`, c),
  signals: (name: string, f: Omit<EvalFilters, 'strategy'>) =>
    api.get<{ signals: Evaluation[] }>(`/strategy/signals/${encodeURIComponent(name)}?${query(f)}`).then((d) => d.signals),
  decisions: (f: EvalFilters) => api.get<{ decisions: Evaluation[] }>(`/strategy/ai-decisions?${query(f)}`).then((d) => d.decisions),
  performance: () => api.get<{ performance: StrategyPerformance[] }>('/strategy/performance').then((d) => d.performance),
  aiPerformance: (name: string) =>
    api.get<{ performance: AIPerformance }>(name ? `/strategy/ai-performance/${encodeURIComponent(name)}` : '/strategy/ai-performance').then((d) => d.performance),
  prompt: (name: string, symbol: string) =>
    api.get<PromptPreview>(`/strategy/prompt/${encodeURIComponent(name)}?symbol=${encodeURIComponent(symbol)}`),
  analyze: (symbol: string, strategy: string) => api.post<Evaluation>(`/strategy/ai-analyze/${encodeURIComponent(symbol)}?strategy=${encodeURIComponent(strategy)}`),
  indicators: (symbol: string, type: string, granularity: string) =>
    api
      .get<{ indicators?: IndicatorReading[]; readings?: IndicatorReading[] }>(`/market-data/indicators/${symbol}?indicator_type=${type}&limit=10&granularity=${granularity}`)
      .then((d) => d.indicators ?? d.readings ?? []),
};

/** Query options, shared by the hooks and by tests. */
export const strategyQueries = {
  list: () => queryOptions({ queryKey: strategyKeys.list, queryFn: strategyApi.list, refetchInterval: POLL, staleTime: 0 }),
  types: () => queryOptions({ queryKey: strategyKeys.types, queryFn: strategyApi.types, staleTime: 5 * 60_000 }),
  // No name yet (a form before the strategy list arrives): nothing to ask.
  config: (name: string) => queryOptions({ queryKey: strategyKeys.config(name), queryFn: () => strategyApi.config(name), staleTime: 0, enabled: name !== '' }),
  signals: (name: string, f: Omit<EvalFilters, 'strategy'>) =>
    queryOptions({ queryKey: strategyKeys.signals(name, f), queryFn: () => strategyApi.signals(name, f), refetchInterval: POLL, staleTime: 0 }),
  decisions: (f: EvalFilters) => queryOptions({ queryKey: strategyKeys.decisions(f), queryFn: () => strategyApi.decisions(f), refetchInterval: POLL, staleTime: 0 }),
  performance: () => queryOptions({ queryKey: strategyKeys.performance, queryFn: strategyApi.performance, refetchInterval: POLL, staleTime: 0 }),
  aiPerformance: (name: string) => queryOptions({ queryKey: strategyKeys.aiPerformance(name), queryFn: () => strategyApi.aiPerformance(name), refetchInterval: POLL, staleTime: 0 }),
  indicators: (symbol: string, type: string, granularity: string) =>
    queryOptions({ queryKey: strategyKeys.indicators(symbol, type, granularity), queryFn: () => strategyApi.indicators(symbol, type, granularity), refetchInterval: 30_000, staleTime: 0 }),
};

export const useStrategies = () => useQuery(strategyQueries.list());
export const useStrategyTypes = () => useQuery(strategyQueries.types());
export const useStrategyConfig = (name: string) => useQuery(strategyQueries.config(name));
/** The AI spend view (operators only: budgets and strategies are platform-wide). */
export const useAIDecisions = (f: EvalFilters, enabled = true) => useQuery({ ...strategyQueries.decisions(f), enabled });
export const useStrategyPerformance = () => useQuery(strategyQueries.performance());
export const useAIPerformance = (name: string) => useQuery(strategyQueries.aiPerformance(name));

/** Signals of one strategy, or of every strategy (names) merged newest first. */
export function useSignals(names: string[], f: Omit<EvalFilters, 'strategy'>) {
  return useQueries({
    queries: names.map((n) => strategyQueries.signals(n, f)),
    combine: (rs) => ({
      data: rs
        .flatMap((r) => r.data ?? [])
        .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
        .slice(0, LIST_LIMIT),
      isLoading: rs.some((r) => r.isLoading),
      error: rs.find((r) => r.error)?.error ?? null,
    }),
  });
}

/** Latest readings of one indicator for a symbol (spec: limit 10). */
export const useIndicator = (symbol: string, type: string, granularity: string) => useQuery(strategyQueries.indicators(symbol, type, granularity));

/** Whether the signed-in user may change strategies (operators only). */
export function useIsOperator(): boolean {
  return useMe().data?.role === 'operator';
}

function refreshStrategies(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: strategyKeys.all });
}

export function useSetEnabled() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (v: { name: string; on: boolean }) => strategyApi.setEnabled(v.name, v.on), retry: 0, onSettled: () => refreshStrategies(qc) });
}

export function useSaveConfig(name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: Partial<StrategyConfig>) => strategyApi.saveConfig(name, c),
    retry: 0,
    onSuccess: (saved) => qc.setQueryData(strategyKeys.config(name), saved),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: strategyKeys.list });
      void qc.invalidateQueries({ queryKey: versionKeys.list(name) }); // a save is a new version
    },
  });
}

export function useCreateStrategy() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: strategyApi.create, retry: 0, onSettled: () => refreshStrategies(qc) });
}

/** Whether an evaluation belongs in a listing cached under filters f. */
export function matches(ev: Evaluation, f: Partial<EvalFilters>): boolean {
  if (f.symbol && f.symbol !== ev.symbol) return false;
  if (f.strategy && f.strategy !== ev.strategy_name) return false;
  if (f.executed && String(ev.executed) !== f.executed) return false;
  return true;
}

function prepend(old: Evaluation[] | undefined, ev: Evaluation): Evaluation[] | undefined {
  if (!old || old.some((e) => e.id === ev.id)) return old;
  return [ev, ...old].slice(0, LIST_LIMIT);
}

/** Writes one realtime strategy_signal into every cached listing it belongs to. */
export function applySignal(qc: QueryClient, ev: Evaluation): void {
  for (const [key] of qc.getQueriesData<Evaluation[]>({ queryKey: strategyKeys.signalsOf(ev.strategy_name) })) {
    const f = key[3] as Omit<EvalFilters, 'strategy'>;
    if (matches(ev, f)) qc.setQueryData<Evaluation[]>(key, (old) => prepend(old, ev));
  }
  const aiNames = (qc.getQueryData<Strategy[]>(strategyKeys.list) ?? []).filter((s) => s.type !== 'technical').map((s) => s.name);
  if (aiNames.includes(ev.strategy_name)) {
    for (const [key] of qc.getQueriesData<Evaluation[]>({ queryKey: strategyKeys.allDecisions })) {
      if (matches(ev, key[2] as EvalFilters)) qc.setQueryData<Evaluation[]>(key, (old) => prepend(old, ev));
    }
    void qc.invalidateQueries({ queryKey: strategyKeys.allAIPerformance });
  }
  void qc.invalidateQueries({ queryKey: strategyKeys.list });
}

let streamUsers = 0;

/**
 * Subscribes to the realtime "signals" channel while mounted, so new signals
 * show at once. Screens embed one another, so the channel is counted: the last
 * one to unmount unsubscribes.
 */
export function useSignalStream(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.onMessage((m) => {
      if (m.type === 'strategy_signal' && m.data && typeof m.data === 'object') applySignal(qc, m.data as Evaluation);
    });
    if (streamUsers++ === 0) realtime.subscribe(['signals']);
    return () => {
      off();
      if (--streamUsers === 0) realtime.unsubscribe(['signals']);
    };
  }, [qc]);
}
