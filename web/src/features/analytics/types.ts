/**
 * The analytics views' shapes (spec section 3), as GET /api/analytics/{tab}
 * returns them: generated from the OpenAPI description. Conventions: money
 * is USD as a decimal string; rates, shares, returns, drawdowns and VaR are
 * numbers, fractions (0.0571 = 5.71%) unless a field says percent; any figure
 * is null when the data is too short to compute it.
 */
import type { components, operations } from '@/api/schema';

type Schemas = components['schemas'];

/** A figure as the screens take it: a number, a decimal string, or null when there is not enough data. */
export type Num = number | string | null;

export type Period = NonNullable<NonNullable<operations['getAnalyticsTrading']['parameters']['query']>['period']>;
export type Tab = keyof AnalyticsData;

/** The span an answer's data actually covers (every analytics response has one). */
export type Coverage = Schemas['AnalyticsCoverage'];

export type TradingAnalytics = Schemas['AnalyticsTrading'];

export type Holding = Schemas['AnalyticsHolding'];

export type PortfolioAnalytics = Schemas['AnalyticsPortfolio'];

/** Each UTC day's make-up: the holdings at that day's end (from the fills) at its close, then cash (asset USD); allocation in percent. */
export type AllocationDay = Schemas['AnalyticsAllocationDay'];

/** How often a move happened in the shipped daily history: occurrences of windows of horizonDays days. */
export type Frequency = Pick<
  Schemas['AnalyticsStressTest'],
  'probability' | 'probabilityBasis' | 'occurrences' | 'windows' | 'horizonDays' | 'dataFrom' | 'dataTo'
>;

export type MarketAnalytics = Schemas['AnalyticsMarket'];

export type AIDecision = Schemas['AnalyticsAIDecision'];

export type AIAnalytics = Schemas['AnalyticsAI'];

/** What the daily loss, drawdown and daily trade limits are checked against now: the venue's state since the switch to it. */
export type LimitsState = Schemas['AnalyticsLimitsState'];

export type RiskAnalytics = Schemas['AnalyticsRisk'];

/** Each tab's answer. */
export interface AnalyticsData {
  trading: TradingAnalytics;
  portfolio: PortfolioAnalytics;
  market: MarketAnalytics;
  ai: AIAnalytics;
  risk: RiskAnalytics;
}
