import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components, operations } from '@/api/schema';
import { api } from '@/lib/api';
import { alertKeys } from '@/lib/queryKeys';

/** A system alert as the signed-in user sees it (dismissed is theirs alone). */
export type SystemAlert = components['schemas']['Alert'];

/** GET /api/system/alerts: the alerts newest first, an empty list (never null) when there is none. */
type AlertList = operations['getSystemAlerts']['responses'][200]['content']['application/json']['data'];

/** Under ['alerts'], which a realtime system_alert invalidates: the bell updates at once, not at the next poll. */
export const ALERTS_KEY = alertKeys.open;
const ALERTS_PATH = '/system/alerts?resolved=false&limit=100';

/** Critical and high alerts can be resolved (for everyone); any alert can be dismissed (for oneself). */
export function canResolve(severity: string): boolean {
  return severity === 'critical' || severity === 'high';
}

/** Open alerts the user has not dismissed since they last happened: the bell's count (none before the list loads). */
export function activeAlerts(alerts: readonly SystemAlert[] | undefined): SystemAlert[] {
  return (alerts ?? []).filter((a) => !a.dismissed);
}

/** The open alerts, polled every 10 seconds and refreshed by realtime alert messages. */
export function useOpenAlerts() {
  return useQuery({
    queryKey: ALERTS_KEY,
    queryFn: () => api.get<AlertList>(ALERTS_PATH),
    refetchInterval: 10_000,
    staleTime: 0,
  });
}

/** Dismiss (for the signed-in user, on the server) or resolve (for everyone) an alert; the list refreshes after. */
export function useAlertAction(action: 'dismiss' | 'resolve') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: SystemAlert['id']) => api.post<SystemAlert>(`/system/alerts/${encodeURIComponent(String(id))}/${action}`),
    retry: false,
    onSettled: () => qc.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
