import { createContext, useContext } from 'react';

/**
 * One polling interval for every query below it, in place of each query's own (POLL): the Dashboard sets it to the
 * dashboard refresh interval setting, so every card there refreshes at the chosen pace. Unset elsewhere.
 */
export const PollEvery = createContext<number | undefined>(undefined);

/** The interval a query polls at: the enclosing PollEvery when there is one, else its own. */
export function usePollEvery(own: number): number {
  return useContext(PollEvery) ?? own;
}
