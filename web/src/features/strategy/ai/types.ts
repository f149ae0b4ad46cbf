/** Shapes of the AI areas (spend, shadow models), generated from the OpenAPI description. */
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

/** GET /ai/spend: tokens and cost of AI decisions per day and strategy, and each provider's month against its budget. */
export type AISpend = Schemas['AISpend'];
export type AISpendTotals = Schemas['AISpendTotals'];

/** A shadow model of an AI instance, and the leaderboard (GET /strategy/shadows/{name}). */
export type ShadowModel = Schemas['ShadowModel'];
export type ShadowDecision = Schemas['ShadowDecision'];
export type ShadowBoardModel = Schemas['ShadowBoardModel'];
export type ShadowLeaderboard = Schemas['ShadowLeaderboard'];
