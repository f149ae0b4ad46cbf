/** The market-data manager's API: coverage, gap reports and backfills (GET/POST /api/market-data/...). */
import type { components } from '@/api/schema';
import { api } from '@/lib/api';
import { marketKeys } from '@/lib/queryKeys';

export type Coverage = components['schemas']['MarketCoverage'];
export type BacktestHistory = components['schemas']['BacktestHistory'];
export type GapReport = components['schemas']['GapReport'];
export type Backfill = components['schemas']['Backfill'];
export type BackfillRequest = components['schemas']['BackfillRequest'];

export const marketDataKeys = marketKeys;

export const marketDataApi = {
  coverage: () => api.get<{ coverage: Coverage[]; backtests: BacktestHistory[] }>('/market-data/coverage'),
  gaps: (symbol: string, granularity: string) => api.get<GapReport>(`/market-data/gaps?symbol=${encodeURIComponent(symbol)}&granularity=${encodeURIComponent(granularity)}`),
  backfills: () => api.get<Backfill[]>('/market-data/backfills'),
  backfill: (req: BackfillRequest) => api.post<{ id: string; status: string }>('/market-data/backfills', req),
  cancel: (id: string) => api.post<Backfill>(`/market-data/backfills/${encodeURIComponent(id)}/cancel`),
};

/** The widths a backfill stores (one- and five-minute candles are generated inside the 15-minute ones). */
export const BACKFILL_GRANULARITIES = ['FIFTEEN_MINUTE', 'THIRTY_MINUTE', 'ONE_HOUR', 'TWO_HOUR', 'SIX_HOUR', 'ONE_DAY'] as const;

/** Every width a backtest can read (gap reports). */
export const GRANULARITIES = ['ONE_MINUTE', 'FIVE_MINUTE', ...BACKFILL_GRANULARITIES] as const;

export const active = (b: Backfill) => b.status === 'queued' || b.status === 'running';

/** A span in words: "3 h", "2 d 4 h", "45 min". */
export function duration(from: string, to: string): string {
  const mins = Math.round((Date.parse(to) - Date.parse(from)) / 60_000);
  if (mins < 60) return `${mins} min`;
  const h = Math.floor(mins / 60);
  if (h < 24) return mins % 60 ? `${h} h ${mins % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
