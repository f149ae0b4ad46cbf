/** What the candle store holds (GET /api/market-data/coverage): backtests run on real market dates inside it. */
import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from './api';
import { marketKeys } from './queryKeys';

export type MarketCoverage = components['schemas']['MarketCoverage'];

export const coverageApi = () => api.get<{ coverage: MarketCoverage[] }>('/market-data/coverage').then((d) => d.coverage);

export const useMarketCoverage = () => useQuery({ queryKey: marketKeys.coverage, queryFn: coverageApi, staleTime: 60_000 });

/** Where a symbol's stored history begins (the oldest candle's open) and ends (the newest candle's close). */
export interface DataSpan {
  symbol: string;
  from: string;
  to: string;
}

const DAY = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The symbol's span over every stored width, as the server reads it for a backtest (marketdata.History.Span): the
 * oldest open and the newest close of any row. null when the store holds nothing for it.
 */
export function symbolSpan(coverage: MarketCoverage[], symbol: string): DataSpan | null {
  const sym = symbol.trim().toUpperCase();
  let out: DataSpan | null = null;
  for (const c of coverage) {
    if (c.symbol !== sym) continue;
    if (!out) out = { symbol: sym, from: c.from, to: c.to };
    else {
      if (Date.parse(c.from) < Date.parse(out.from)) out.from = c.from;
      if (Date.parse(c.to) > Date.parse(out.to)) out.to = c.to;
    }
  }
  return out;
}

/** The first UTC day with data and the last whole one ("2024-04-18", "2026-05-07"), as the server words a refusal. */
export function spanDays(s: DataSpan): { first: string; last: string } {
  return { first: ymd(dayOf(s.from)), last: ymd(dayOf(s.to) - DAY) };
}

/** The server's words for the span: "Market data for BTC-USD covers 2024-04-18 to 2026-05-07". */
export function coverageMessage(s: DataSpan): string {
  const { first, last } = spanDays(s);
  return `Market data for ${s.symbol} covers ${first} to ${last}`;
}

/**
 * Why a period [start, end) (end exclusive, dates at 00:00 UTC) is outside the span, on the field the server names
 * (start_date when it begins too early, else end_date); null when the span holds it whole (marketdata.Span.Covers).
 */
export function periodOutside(s: DataSpan, start: string, end: string): { field: 'start_date' | 'end_date'; message: string } | null {
  const a = Date.parse(`${start}T00:00:00Z`);
  const b = Date.parse(`${end}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || a >= b) return null; // the form's own checks say so
  const first = dayOf(s.from);
  const endOfData = dayOf(s.to); // the end of the last whole day
  if (a >= first && b <= endOfData) return null;
  return { field: a < first ? 'start_date' : 'end_date', message: coverageMessage(s) };
}

/**
 * The spec's default period, the last three months, ending with the newest whole UTC day of data: `to` is the
 * newest candle's close and end dates are exclusive, so the period ends at 00:00 of `to`'s day (the server's
 * backtest.Service.Defaults).
 */
export function periodEndingAt(to: string): { start_date: string; end_date: string } {
  const end = new Date(dayOf(to));
  const start = new Date(end);
  start.setUTCMonth(start.getUTCMonth() - 3);
  return { start_date: ymd(start.getTime()), end_date: ymd(end.getTime()) };
}

interface Period {
  symbol: string;
  start_date: string;
  end_date: string;
}

/** The state of a form's period against the store: its span once known; Run waits for it. */
export interface DataPeriod {
  /** The symbol's span; null while loading, on failure, or when the store has nothing for it. */
  span: DataSpan | null;
  /** The coverage has answered: the form's period can be checked (and its default was set). */
  known: boolean;
  failed: boolean;
  error: unknown;
  retry: () => void;
}

/**
 * Gives a form the default period of its symbol, the last three months of stored data, once the coverage is known
 * (the form starts with no dates), and again when the symbol changes while the period is still the default one.
 * A period the trader typed is kept.
 */
export function useDataPeriod<F extends Period>(form: F, setForm: Dispatch<SetStateAction<F>>): DataPeriod {
  const q = useMarketCoverage();
  /** The period this hook last set: still in the form means not chosen by the trader. */
  const auto = useRef<{ start_date: string; end_date: string } | null>(null);
  const span = q.data ? symbolSpan(q.data, form.symbol) : null;
  const to = span?.to;
  useEffect(() => {
    if (!to) return;
    const p = periodEndingAt(to);
    setForm((f) => {
      const untouched = (!f.start_date && !f.end_date) || (auto.current !== null && f.start_date === auto.current.start_date && f.end_date === auto.current.end_date);
      if (!untouched || (f.start_date === p.start_date && f.end_date === p.end_date)) return f;
      auto.current = p;
      return { ...f, ...p };
    });
  }, [to, setForm]);
  // The default lands in the render after the coverage's: until then the period is not known either.
  const known = q.isSuccess && !(span && !form.start_date && !form.end_date);
  return { span, known, failed: q.isError, error: q.error, retry: () => void q.refetch() };
}
