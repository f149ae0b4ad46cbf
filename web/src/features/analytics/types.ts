/**
 * The analytics views' shapes (spec section 3), as GET /api/analytics/{tab}
 * returns them. Conventions: money is USD (a number or a decimal string);
 * rates, shares, returns, drawdowns and VaR are fractions (0.0571 = 5.71%);
 * any figure is null when the data is too short to compute it.
 *
 * What the OpenAPI description declares (the period, the coverage every answer
 * carries, the risk limits' state) is taken from the generated types. The
 * figures of each tab are not declared there (its Analytics schema is an open
 * object), so their shapes are written here and laid over the generated answer.
 */
import type { components, operations } from '@/api/schema';

type Schemas = components['schemas'];
type Json<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;

/** A figure from the server: null when there is not enough data. */
export type Num = number | string | null;

export type Period = NonNullable<NonNullable<operations['getAnalyticsTrading']['parameters']['query']>['period']>;
export type Tab = keyof AnalyticsData;

/** The span an answer's data actually covers (every analytics response has one). */
export type Coverage = Schemas['AnalyticsCoverage'];

export interface TradingAnalytics {
  totalTrades: number;
  winningTrades: number;
  losingTrades: number;
  winRate: Num;
  totalPnL: Num;
  averageWin: Num;
  averageLoss: Num;
  profitFactor: Num;
  winLossRatio: Num;
  /** Per trade, not annualised. */
  sharpeRatio: Num;
  /** USD: the largest fall of cumulative realized P&L from its peak. */
  maxDrawdown: Num;
  totalVolume: Num;
  averageTradeSize: Num;
  dailyPnL: { date: string; pnl: Num; cumulative: Num }[];
  tradeDistribution: { range: string; count: number }[];
  monthlyPerformance: { month: string; pnl: Num; trades: number }[];
}

export interface Holding {
  symbol: string;
  quantity: Num;
  currentPrice: Num;
  marketValue: Num;
  costBasis: Num;
  unrealizedPnL: Num;
  unrealizedPnLPercent: Num;
  allocation: Num;
}

export interface PortfolioAnalytics {
  totalValue: Num;
  totalCost: Num;
  totalUnrealizedPnL: Num;
  totalUnrealizedPnLPercent: Num;
  diversificationRatio: Num;
  beta: Num;
  volatility: Num;
  sharpeRatio: Num;
  holdings: Holding[];
  valueHistory: { date: string; value: Num }[];
  /** Each UTC day's make-up: the holdings at that day's end (from the fills) at its close, then cash (asset USD); allocation in percent. */
  allocationHistory?: AllocationDay[];
  /** The symbol beta is measured against. */
  benchmark?: string;
  correlationMatrix?: { symbols: string[]; matrix: (number | null)[][] };
}

export interface AllocationDay {
  date: string;
  totalValue: Num;
  assets: { asset: string; quantity: Num; close: Num; value: Num; allocation: Num }[];
}

/** How often a move happened in the shipped daily history: occurrences of windows of horizonDays days. */
export interface Frequency {
  probability: Num;
  /** In words: "12 of 720 30-day windows of the daily closes ...", or why there is no probability. */
  probabilityBasis?: string;
  occurrences?: number;
  windows?: number;
  horizonDays?: number;
  dataFrom?: string;
  dataTo?: string;
}

export interface MarketAnalytics {
  metrics: {
    marketCap: Num;
    volume24h: Num;
    dominance: Num;
    dominanceScope?: string;
    volatilityIndex: Num;
    /** Kestrel's own market index (volatility, momentum, volume), 0-100. */
    fearGreedIndex: Num;
    fearGreedLabel?: string | null;
    marketIndex?: { value: number; label: string; momentum: number; volatility: number; volume: number; name: string } | null;
    trendStrength: Num;
  };
  trends: { symbol: string; price: Num; change24h: Num; changePercent24h: Num; volume: Num; volumeUsd: Num; marketCap: Num; trend: string | null }[];
  volatility: { symbol: string; volatility: Num; averageVolatility: Num; riskLevel: string | null }[];
  correlations: { symbol1: string; symbol2: string; correlation: Num; strength?: string | null; days?: number }[];
  priceHistory: Record<string, { date: string; close: Num }[]>;
  /** The selected symbol's daily volume in base units and its 7-day mean. */
  volumeAnalysis: { date: string; volume: Num; avgVolume: Num }[];
  /** The circulating supply table behind the market caps: its date and source. */
  supply: { asOf: string; source: string; note?: string; supply?: Record<string, Num>; unverified?: string[] };
  unavailable?: Record<string, string>;
  /** Where the daily candles come from ('candle store': the sandbox's stored history by real dates) and the days read. */
  dates?: { source: string; from: string | null; to: string | null; note: string };
}

export interface AIDecision {
  id: string;
  timestamp: string;
  strategyName?: string;
  symbol: string;
  recommendation: 'BUY' | 'SELL' | 'HOLD';
  confidence: number;
  reasoning: string;
  executed: boolean;
  outcome: 'profit' | 'loss' | 'pending';
  /** Null while pending. */
  pnl: Num;
}

export interface AIAnalytics {
  metrics: {
    totalDecisions: number;
    executedDecisions: number;
    failedDecisions?: number;
    resolvedDecisions?: number;
    accuracyRate: Num;
    averageConfidence: Num;
    totalPnL: Num;
    winRate: Num;
    /** Seconds. */
    averageResponseTime: Num;
    modelVersion: string | null;
  };
  decisions: AIDecision[];
  strategies: { strategyName: string; totalTrades: number; winRate: Num; totalPnL: Num; sharpeRatio: Num; maxDrawdown: Num; averageConfidence: Num; isActive: boolean; decisions?: number }[];
  confidenceDistribution: { range: string; count: number }[];
  decisionBreakdown: { type: string; count: number; executed?: number; resolved?: number; successRate: Num }[];
  /** Per UTC day a decision was made: P&L of that day's resolved BUY decisions (null when none resolved). */
  performance: { date: string; decisions: number; executed: number; pnl: Num }[];
}

/** What the daily loss, drawdown and daily trade limits are checked against now: the venue's state since the switch to it. */
export type LimitsState = Json<operations['getAnalyticsRisk']['responses'][200]>['limitsState'];

export interface RiskAnalytics {
  /** Absent from a server before the limits' state was reported. */
  limitsState?: LimitsState;
  metrics: {
    portfolioValue: Num;
    totalExposure: Num;
    var95: Num;
    var99: Num;
    var95Amount: Num;
    var99Amount: Num;
    /** -(mean + z x std) of the daily returns, beside the historical figures. */
    parametricVar95: Num;
    parametricVar99: Num;
    expectedShortfall: Num;
    expectedShortfallAmount: Num;
    maxDrawdown: Num;
    currentDrawdown: Num;
    recoveryFactor: Num;
    volatility: Num;
    beta: Num;
    sharpeRatio: Num;
    sortinoRatio: Num;
    calmarRatio: Num;
    returnsUsed?: number;
  };
  /** USD: each day's VaR (a positive loss) and the P&L that day actually made. */
  varHistory: { date: string; var95: Num; var99: Num; actualPnL: Num }[];
  drawdownHistory: { date: string; drawdown: Num; underwater: boolean; recovery: Num }[];
  /** probability: a fraction of the history's windows (null when the move never happened there). */
  stressTests: ({ scenario: string; portfolioImpact: Num; impactPercent: Num; description: string } & Frequency)[];
  /** Market events from the shipped daily history applied to the current holdings (impact in USD). */
  scenarioAnalysis?: ({ scenario: string; description: string; impact: Num; impactPercent: Num } & Frequency)[];
  correlationRisks: { asset1: string; asset2: string; correlation: Num; riskContribution: Num }[];
  riskDecomposition: { component: string; contribution: Num; percentage: Num }[];
}

/** Each tab's answer: the generated response (coverage, ...) with the figures above. */
export interface AnalyticsData {
  trading: Json<operations['getAnalyticsTrading']['responses'][200]> & TradingAnalytics;
  portfolio: Json<operations['getAnalyticsPortfolio']['responses'][200]> & PortfolioAnalytics;
  market: Json<operations['getAnalyticsMarket']['responses'][200]> & MarketAnalytics;
  ai: Json<operations['getAnalyticsAi']['responses'][200]> & AIAnalytics;
  risk: Json<operations['getAnalyticsRisk']['responses'][200]> & RiskAnalytics;
}
