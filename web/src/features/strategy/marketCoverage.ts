/** What the candle store holds (GET /api/market-data/coverage): backtests run on real market dates inside it. */
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api';
import { defaultForm, type BacktestForm } from './backtestModel';

export type MarketCoverage = components['schemas']['MarketCoverage'];

export const coverageApi = () => api.get<{ coverage: MarketCoverage[] }>('/market-data/coverage').then((d) => d.coverage);

export const useMarketCoverage = () => useQuery({ queryKey: ['market-data', 'coverage'], queryFn: coverageApi, staleTime: 60_000 });

/**
 * The spec's default period, the last three months, ending with the newest whole UTC day of data: `to` is the
 * newest candle's close and end dates are exclusive, so the period ends at 00:00 of `to`'s day.
 */
export function periodEndingAt(to: string): Pick<BacktestForm, 'start_date' | 'end_date'> {
  const end = new Date(`${to.slice(0, 10)}T00:00:00Z`);
  const start = new Date(end);
  start.setUTCMonth(start.getUTCMonth() - 3);
  return { start_date: start.toISOString().slice(0, 10), end_date: end.toISOString().slice(0, 10) };
}

/** Moves the form's untouched default period (ending today) to the last three months of stored data for its symbol. */
export function useDataPeriod(setForm: Dispatch<SetStateAction<BacktestForm>>) {
  const { data } = useMarketCoverage();
  useEffect(() => {
    if (!data) return;
    setForm((f) => {
      const today = defaultForm();
      if (f.start_date !== today.start_date || f.end_date !== today.end_date) return f;
      // One row per source: the period ends with the newest of them.
      const to = data
        .filter((c) => c.symbol === f.symbol && c.granularity === 'FIFTEEN_MINUTE')
        .map((c) => c.to)
        .sort()
        .at(-1);
      return to ? { ...f, ...periodEndingAt(to) } : f;
    });
  }, [data, setForm]);
}
