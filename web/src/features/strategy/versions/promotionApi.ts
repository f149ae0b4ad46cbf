import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { promotionKeys, strategyKeys } from '@/lib/queryKeys';
import type { components } from '@/api/schema';
import type { ApiData } from '@/lib/types';

type Schemas = components['schemas'];
export type Promotion = Schemas['Promotion'];
export type PromotionStage = Schemas['PromotionStage'];
export type PromotionGate = Schemas['PromotionGate'];
export type PromotionSettings = Schemas['SettingsPromotion'];
export type DriftReport = Schemas['DriftReport'];
export type DriftSymbol = Schemas['DriftSymbol'];

/** GET /strategy/promotions/{name}: every stage, newest first, and the gate settings. */
export type PromotionList = ApiData<'/api/strategy/promotions/{name}', 'get'>;

export { promotionKeys };

const path = (name: string) => `/strategy/promotions/${encodeURIComponent(name)}`;

export const promotionApi = {
  list: (name: string) => api.get<PromotionList>(path(name)),
  toPaper: (name: string, version: number) => api.post<Promotion>(path(name), { version }),
  approve: (name: string, id: string) => api.post<Promotion>(`${path(name)}/${encodeURIComponent(id)}/approve`),
  demote: (name: string, id: string, reason: string) => api.post<Promotion>(`${path(name)}/${encodeURIComponent(id)}/demote`, { reason }),
  drift: (name: string, id: string) => api.get<DriftReport>(`${path(name)}/${encodeURIComponent(id)}/drift`),
  closePositions: (name: string, id: string) => api.post<{ orders: unknown[]; count: number; warning?: string }>(`${path(name)}/${encodeURIComponent(id)}/close-positions`),
};

/** The gates a refused promotion (409) lists, each with the figure required and the one seen; empty for any other error. */
export function refusedGates(err: unknown): PromotionGate[] {
  if (!(err instanceof ApiError) || err.status !== 409) return [];
  const gates = err.body.gates;
  return Array.isArray(gates) ? (gates as PromotionGate[]) : [];
}

export const usePromotions = (name: string) =>
  useQuery({ ...queryOptions({ queryKey: promotionKeys.list(name), queryFn: () => promotionApi.list(name) }), enabled: name !== '', refetchInterval: 10_000 });

export const useDrift = (name: string, id: string) =>
  useQuery({ queryKey: promotionKeys.drift(name, id), queryFn: () => promotionApi.drift(name, id), enabled: id !== '', staleTime: 0, retry: 0 });

function useRefresh(name: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: promotionKeys.list(name) });
    void qc.invalidateQueries({ queryKey: strategyKeys.all }); // live changes the instance
  };
}

export function usePromote(name: string) {
  const refresh = useRefresh(name);
  return useMutation({ mutationFn: (version: number) => promotionApi.toPaper(name, version), retry: 0, onSettled: refresh });
}

export function useApprove(name: string) {
  const refresh = useRefresh(name);
  return useMutation({ mutationFn: (id: string) => promotionApi.approve(name, id), retry: 0, onSettled: refresh });
}

export function useDemote(name: string) {
  const refresh = useRefresh(name);
  return useMutation({ mutationFn: ({ id, reason }: { id: string; reason: string }) => promotionApi.demote(name, id, reason), retry: 0, onSettled: refresh });
}

export function useClosePositions(name: string) {
  const refresh = useRefresh(name);
  return useMutation({ mutationFn: (id: string) => promotionApi.closePositions(name, id), retry: 0, onSettled: refresh });
}
