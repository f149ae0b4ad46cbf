/** Shapes of /api/sweeps: generated from the OpenAPI description. */
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type Sweep = Schemas['Sweep'];
export type SweepTrial = Schemas['SweepTrial'];
export type SweepRequest = Schemas['SweepRequest'];
export type SweepSummary = Schemas['SweepSummary'];
export type WalkForwardFold = Schemas['WalkForwardFold'];
export type DeflatedSharpe = Schemas['DeflatedSharpe'];
export type ParameterStability = Schemas['ParameterStability'];
