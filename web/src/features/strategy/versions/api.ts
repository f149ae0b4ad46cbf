import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { strategyKeys, versionKeys } from '@/lib/queryKeys';
import type { ApiData } from '@/lib/types';
import type { StrategyConfig, StrategyVersion, StrategyVersionSave } from '../strategies/types';

/** GET /strategy/versions/{name}: newest first, with the number the instance runs. */
export type VersionList = ApiData<'/api/strategy/versions/{name}', 'get'>;

export { versionKeys };

const path = (name: string) => `/strategy/versions/${encodeURIComponent(name)}`;

export const versionApi = {
  list: (name: string) => api.get<VersionList>(path(name)),
  /** Saves a new version (never overwrites one) and makes it active. */
  save: (name: string, body: StrategyVersionSave) => api.post<{ version: StrategyVersion; config: StrategyConfig }>(path(name), body),
  activate: (name: string, version: number) =>
    api.post<{ strategy: string; active_version: number; previous_version: number; config: StrategyConfig }>(`${path(name)}/${version}/activate`),
};

export const versionQueries = {
  list: (name: string) => queryOptions({ queryKey: versionKeys.list(name), queryFn: () => versionApi.list(name), staleTime: 0 }),
};

export const useVersions = (name: string) => useQuery({ ...versionQueries.list(name), enabled: name !== '' });

/** After a version changes, the instance's configuration and the lists change too. */
function useRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: strategyKeys.all });
}

export function useActivateVersion(name: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (version: number) => versionApi.activate(name, version), retry: 0, onSettled: refresh });
}

export function useSaveVersion(name: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: StrategyVersionSave) => versionApi.save(name, body), retry: 0, onSettled: refresh });
}
