/** Shapes of /api/strategy/* (see httpapi/strategy.go and strategy/config.go). */

export type StrategyType = 'technical' | 'ai_driven' | 'hybrid';
export type Decision = 'BUY' | 'SELL' | 'HOLD';

export const TIMEFRAMES = ['ONE_MINUTE', 'FIVE_MINUTE', 'FIFTEEN_MINUTE', 'THIRTY_MINUTE', 'ONE_HOUR', 'TWO_HOUR', 'SIX_HOUR', 'ONE_DAY'] as const;

export interface Indicators {
  rsi_period: number;
  rsi_oversold: number;
  rsi_overbought: number;
  sma_short: number;
  sma_long: number;
  macd_fast: number;
  macd_slow: number;
  macd_signal: number;
  bollinger_period: number;
  bollinger_std: number;
}

export interface StrategyConfig {
  name: string;
  type: StrategyType;
  enabled: boolean;
  min_confidence: number;
  max_position_size: number;
  risk_multiplier: number;
  symbols: string[];
  timeframe: string;
  indicators?: Indicators;
  model?: string;
  max_tokens?: number;
  temperature?: number;
  context_length?: number;
  parameters?: Record<string, unknown>;
  /** The model that really answers (the provider's label for `model`), AI instances only. */
  model_label?: string;
  provider?: string;
}

/** GET /strategy/prompt/{name}: the prompt an AI instance would send now. */
export interface PromptPreview {
  strategy: string;
  symbol: string;
  template_version: string;
  prompt: string;
}

export interface Strategy {
  name: string;
  type: StrategyType;
  is_active: boolean;
  total_signals: number;
  avg_confidence: number;
  last_signal_time: string | null;
  config: StrategyConfig;
}

export interface StrategyTypeInfo {
  type: StrategyType;
  description: string;
}

/** One stored evaluation: a signal, or an AI decision. */
export interface Evaluation {
  id: string;
  timestamp: string;
  strategy_name: string;
  symbol: string;
  candle_time: string;
  decision: Decision;
  confidence: number;
  reasoning: string;
  indicators: Record<string, number> | null;
  executed: boolean;
  reason?: string;
  order_id?: string;
  provider?: string;
  model?: string;
  latency_ms?: number;
  prompt?: string;
  error?: string;
}

export interface StrategyPerformance {
  strategy_name: string;
  total_trades: number;
  winning_trades: number;
  win_rate: number; // percent
  realized_pnl: string;
  unrealized_pnl: string;
  total_pnl: string;
  max_drawdown: string;
  sharpe_ratio: number;
}

export interface AIPerformance {
  total_decisions: number;
  executed_decisions: number;
  execution_rate: number; // 0-1
  avg_confidence: number;
  decision_distribution: Partial<Record<Decision, number>>;
  failed_decisions: number;
}

export interface IndicatorReading {
  timestamp: string;
  indicator_type: string;
  value: number;
  upper?: number;
  lower?: number;
  period?: number;
}

/** Filters of the evaluation listings (empty means any). */
export interface EvalFilters {
  symbol: string;
  strategy: string;
  executed: '' | 'true' | 'false';
}
