import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { aiKeys } from '@/lib/queryKeys';
import type { AISpend } from './types';

/** GET /ai/spend, polled while the card shows. */
export const useAISpend = (enabled: boolean) => useQuery({ queryKey: aiKeys.spend, queryFn: () => api.get<AISpend>('/ai/spend'), refetchInterval: 10_000, enabled });
