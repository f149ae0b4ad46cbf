import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { components, operations } from '@/api/schema';
import { api } from '@/lib/api';
import { aiKeys, versionKeys } from '@/lib/queryKeys';

type Schemas = components['schemas'];

/** One strategy version as the prompt history shows it. */
export type PromptVersion = Schemas['PromptVersion'];
/** A submitted template rendered against live data, or why it does not render. */
export type PromptCheck = Schemas['PromptCheck'];
export type TemplateError = Schemas['TemplateError'];
/** GET /strategy/prompt-versions/{name}. */
export type PromptHistory = operations['getStrategyPromptVersionsName']['responses']['200']['content']['application/json']['data'];

/** How long the editor waits after the last keystroke before checking the draft. */
export const CHECK_DEBOUNCE_MS = 400;

export const promptKeys = { versions: versionKeys.prompts };

export const promptApi = {
  versions: (name: string) => api.get<PromptHistory>(`/strategy/prompt-versions/${encodeURIComponent(name)}`),
  /** Renders an unsaved template for symbol (operators). */
  check: (name: string, template: string, symbol: string) => api.post<PromptCheck>(`/strategy/prompt/${encodeURIComponent(name)}`, { template, symbol }),
};

export const promptQueries = {
  versions: (name: string) => queryOptions({ queryKey: promptKeys.versions(name), queryFn: () => promptApi.versions(name), staleTime: 0 }),
};

export const usePromptVersions = (name: string) => useQuery(promptQueries.versions(name));

/** A value that follows v once it has stayed the same for ms. */
export function useDebounced<T>(v: T, ms: number): T {
  const [out, setOut] = useState(v);
  useEffect(() => {
    const t = setTimeout(() => setOut(v), ms);
    return () => clearTimeout(t);
  }, [v, ms]);
  return out;
}

/**
 * Checks the draft as it is typed (debounced); the last answer stays shown while the next is on its way.
 * The render uses the saved configuration (its trade memory, say), so a new version asks again.
 */
export function useTemplateCheck(name: string, version: number, draft: string, symbol: string, enabled: boolean) {
  const settled = useDebounced(draft, CHECK_DEBOUNCE_MS);
  return useQuery({
    queryKey: aiKeys.promptCheck(name, version, symbol, settled),
    queryFn: () => promptApi.check(name, settled, symbol),
    enabled,
    staleTime: 30_000,
    retry: 0,
    placeholderData: (prev) => prev,
  });
}
