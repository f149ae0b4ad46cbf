/** Shapes of /api/backtests: the replies are generated from the OpenAPI description (see src/lib/types.ts). */
import type { components, paths } from '@/api/schema';

type Schemas = components['schemas'];

/**
 * What the form asks for: POST /api/backtests (the generated request), with the
 * fields the screen always sends made required and its amounts as numbers.
 */
export type BacktestAsk = Schemas['BacktestRequest'] & {
  symbol: string;
  start_date: string; // YYYY-MM-DD
  end_date: string;
  initial_capital: number;
  /** Basis points paid beyond the book on every market fill (0-1000). */
  slippage_bps?: number;
  /** The largest share of a candle's volume one order may take (0-1); the rest fills at the next opens. */
  volume_cap?: number;
};

export type AIMode = Schemas['AIMode'];

/** What a live-model run would do, answered (200, not stored) instead of running it. */
export type LiveEstimate = Schemas['LiveEstimate'];

/** The model side of an AI-driven or hybrid run. */
export type AIRun = Schemas['AIRun'];

/** The run's fill model, shown on every report. */
export type Assumptions = Schemas['BacktestAssumptions'];

export type EquityPoint = Schemas['BacktestEquityPoint'];

/** A closed round trip. */
export type BacktestTrade = Schemas['BacktestTrade'];

export type BacktestFill = Schemas['BacktestFill'];

/** A stored run: what was asked, the assumptions and the result. */
export type BacktestReport = Schemas['BacktestReport'];

/** GET /api/backtests/{id}: a backtest job's status and progress, with its report once completed. */
export type BacktestJob = Schemas['BacktestJob'];

export type JobStatus = Schemas['JobStatus'];

/** A job as the WebSocket's jobs channel sends it. */
export type Job = Schemas['Job'];

/** POST /api/backtests: queued (202). */
export type QueuedBacktest = paths['/api/backtests']['post']['responses'][202]['content']['application/json']['data'];

/** One line of GET /api/backtests. */
export type BacktestRun = Schemas['BacktestRun'];

/** A candle of the chosen period (GET /api/market-data/historical/{symbol}). */
export type PeriodCandle = Schemas['Candle'];
