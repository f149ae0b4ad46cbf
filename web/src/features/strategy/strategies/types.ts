/** Shapes of /api/strategy/*, generated from the OpenAPI description (see src/lib/types.ts). */
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type StrategyType = Schemas['StrategyType'];
export type Decision = Schemas['Decision'];

export const TIMEFRAMES = ['ONE_MINUTE', 'FIVE_MINUTE', 'FIFTEEN_MINUTE', 'THIRTY_MINUTE', 'ONE_HOUR', 'TWO_HOUR', 'SIX_HOUR', 'ONE_DAY'] as const;

export type Indicators = Schemas['Indicators'];

export type StrategyConfig = Schemas['StrategyConfig'];

/** GET /strategy/prompt/{name}: the prompt an AI instance would send now. */
export type PromptPreview = Schemas['PromptPreview'];

export type Strategy = Schemas['Strategy'];

export type StrategyTypeInfo = Schemas['StrategyTypeInfo'];

export type Evaluation = Schemas['Evaluation'];

export type StrategyPerformance = Schemas['StrategyPerformance'];

export type AIPerformance = Schemas['AIPerformance'];

export type IndicatorReading = Schemas['IndicatorReading'];

/** Filters of the evaluation listings (empty means any). */
export interface EvalFilters {
  symbol: string;
  strategy: string;
  executed: '' | 'true' | 'false';
}

/** One saved configuration of an instance (GET /strategy/versions/{name}). */
export type StrategyVersion = Schemas['StrategyVersion'];

/** POST /strategy/versions/{name}: params in the configuration's own shape, laid over parent. */
export type StrategyVersionSave = Schemas['StrategyVersionSave'];
