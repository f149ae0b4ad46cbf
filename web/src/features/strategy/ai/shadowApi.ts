import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { aiKeys } from '@/lib/queryKeys';
import type { ShadowLeaderboard } from './types';

/** GET /strategy/shadows/{name}: the live model against each shadow, over the last `days` days. */
export const shadowApi = {
  board: (name: string, days = 30) => api.get<ShadowLeaderboard>(`/strategy/shadows/${encodeURIComponent(name)}?days=${days}`),
};

export const shadowBoardQuery = (name: string, days = 30) =>
  queryOptions({ queryKey: aiKeys.shadows(name, days), queryFn: () => shadowApi.board(name, days), refetchInterval: 10_000 });

export const useShadowBoard = (name: string, days = 30) => useQuery(shadowBoardQuery(name, days));
