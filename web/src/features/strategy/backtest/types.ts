/** Shapes of /api/backtests: the replies are generated from the OpenAPI description (see src/lib/types.ts). */
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

/** What the form asks for: POST /api/backtests. */
export interface BacktestAsk {
  strategy_name: string;
  symbol: string;
  start_date: string; // YYYY-MM-DD
  end_date: string;
  initial_capital: number;
  /** Overrides of the strategy's configuration for this run only. */
  params?: Record<string, unknown>;
  /** Basis points paid beyond the book on every market fill (0-1000). */
  slippage_bps?: number;
  /** The largest share of a candle's volume one order may take (0-1); the rest fills at the next opens. */
  volume_cap?: number;
  /** How an AI-driven or hybrid strategy decides (absent: builtin). */
  ai_mode?: AIMode;
  /** Runs a live-model backtest; without it the server answers with a LiveEstimate. */
  confirm_live?: boolean;
  /** Runs this stored version of the strategy instead of the active one. */
  strategy_version?: number;
}

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
export interface QueuedBacktest {
  id: string;
  status: JobStatus;
}

/** One line of GET /api/backtests. */
export type BacktestRun = Schemas['BacktestRun'];

export interface PeriodCandle {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}
