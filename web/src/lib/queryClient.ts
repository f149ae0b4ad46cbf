import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** The spec's data-fetching defaults (section 7, Polling). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * 60_000,
        gcTime: 10 * 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 3;
        },
      },
      mutations: { retry: 1 },
    },
  });
}
