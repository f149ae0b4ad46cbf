import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api';
import { userKeys } from '@/lib/queryKeys';

/** An API token as listed (never its secret). */
export type ApiToken = components['schemas']['APIToken'];
export type TokenScope = ApiToken['scope'];
export type NewApiToken = components['schemas']['NewAPIToken'];
/** A token just created: the one time its secret is shown. */
export type CreatedToken = ApiToken & { token: string };

const ownerQuery = (userId?: string) => (userId ? `?user_id=${encodeURIComponent(userId)}` : '');

export const tokensApi = {
  list: (userId?: string) => api.get<{ tokens: ApiToken[] }>(`/tokens${ownerQuery(userId)}`).then((d) => d.tokens),
  create: (t: NewApiToken, userId?: string) => api.post<CreatedToken>(`/tokens${ownerQuery(userId)}`, t),
  revoke: (id: string) => api.del<{ revoked: boolean; id: string }>(`/tokens/${encodeURIComponent(id)}`),
};

export const tokensKey = userKeys.tokens;

export function useApiTokens(userId?: string) {
  return useQuery({ queryKey: tokensKey(userId), queryFn: () => tokensApi.list(userId) });
}

/** A change to the tokens that refreshes their list when done. */
export function useTokenMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, retry: 0, onSettled: () => qc.invalidateQueries({ queryKey: userKeys.allTokens }) });
}
