/** Shapes of /api/backtests (see backtest/service.go and backtest/result.go). */

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
  /** Runs a live-model backtest; without it the server answers with an estimate. */
  confirm_live?: boolean;
}

export type AIMode = 'builtin' | 'recorded' | 'live';

/** What a live-model run would do, answered instead of running it (backtest/aimode.go). */
export interface LiveEstimate {
  status: 'confirmation_required';
  strategy_name: string;
  symbol: string;
  provider: string;
  model: string;
  model_calls: number;
  max_model_calls: number;
  training_cutoff?: string;
  warnings: string[];
  message: string;
}

/** The model side of an AI-driven or hybrid run. */
export interface AIRun {
  mode: AIMode;
  provider: string;
  model?: string;
  prompts: number;
  recorded: number;
  missing: number;
  failed: number;
  models?: Record<string, number>;
  /** A live run's answers recorded for replay. */
  saved?: number;
  first_failure?: string;
  summary: string;
  warnings?: string[];
}

/** The run's fill model, shown on every report. */
export interface Assumptions {
  taker_fee: string;
  maker_fee: string;
  slippage_bps: string;
  volume_cap: string;
  fills: string;
  timeframe: string;
  ai_provider?: string;
  ai_mode?: AIMode;
  engine_version: string;
  build: string;
  candles_hash: string;
  candles: number;
}

export interface EquityPoint {
  time: string;
  equity: string;
  drawdown: number; // fraction below the peak
}

/** A closed round trip. */
export interface BacktestTrade {
  entry_time: string;
  exit_time: string;
  entry_price: string;
  exit_price: string;
  quantity: string;
  fees: string;
  pnl: string;
  exit_reason: string;
}

export interface BacktestFill {
  side: 'BUY' | 'SELL';
  time: string;
  price: string;
  quantity: string;
  fee: string;
  reason: string; // signal, stop_loss, take_profit, end_of_data
}

/** A stored run: what was asked, the assumptions and the result. */
export interface BacktestReport {
  id: string;
  created_at: string;
  request: Omit<BacktestAsk, 'initial_capital'> & { initial_capital: string | number };
  config: unknown;
  assumptions: Assumptions;
  ai?: AIRun;
  strategy_name: string;
  symbol: string;
  start_date: string;
  end_date: string;
  total_trades: number;
  winning_trades: number;
  losing_trades: number;
  total_return: number; // fraction
  win_rate: number; // fraction
  max_drawdown: number; // fraction
  sharpe_ratio: number;
  sortino_ratio: number;
  calmar_ratio: number;
  cagr: number;
  profit_factor: number;
  win_loss_ratio: number;
  expectancy: string;
  average_win: string;
  average_loss: string;
  exposure_time: number;
  fees_paid: string;
  buy_and_hold_return: number;
  initial_equity: string;
  final_equity: string;
  signals: number;
  not_executed: Record<string, number> | null;
  candles: number;
  status: string; // completed, not_implemented, anything else failed
  equity_curve: EquityPoint[] | null;
  trades: BacktestTrade[] | null;
  fills: BacktestFill[] | null;
}

/** One line of GET /api/backtests. */
export interface BacktestRun {
  id: string;
  created_at: string;
  strategy_name: string;
  symbol: string;
  status: string;
  request: BacktestReport['request'];
}

export interface PeriodCandle {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}
