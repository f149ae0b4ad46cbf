import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { getToken } from './token';
import type { User } from './types';
import { authKeys } from './queryKeys';

export const meKey = authKeys.me;

/** The signed-in user; a 401 here sends the browser to /login. */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: () => api.get<User>('/auth/me'), enabled: !!getToken() });
}
