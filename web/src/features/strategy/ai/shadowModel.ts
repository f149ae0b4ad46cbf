/** Shadow models (strategy/shadowconfig.go) and the leaderboard (GET /strategy/shadows/{name}): pure helpers. */
import type { FieldErrors } from '../strategies/model';
import type { ShadowDecision, ShadowLeaderboard, ShadowModel } from './types';

export const SHADOW_PROVIDERS = ['builtin', 'openai', 'replicate'] as const;
export const MAX_SHADOWS = 3;

/** The server's decimal fraction (exact text) as a signed percent with two places: "-0.0329" -> "-3.29%". */
export function returnPercent(fraction: string): string {
  const n = Number(fraction) * 100;
  const s = (Math.abs(n) < 0.005 ? 0 : n).toFixed(2);
  return (n > 0 && s !== '0.00' ? '+' : '') + s + '%';
}

/** How a model is named in the leaderboard and beside a decision. */
export function shadowLabel(d: Pick<ShadowDecision, 'provider' | 'model'>): string {
  return d.provider === 'builtin' ? 'Built-in analyst' : `${d.provider}/${d.model}`;
}

/** The entries to save: trimmed, builtin without a model, openai's own base URL only when given. */
export function shadowParams(rows: ShadowModel[]): ShadowModel[] {
  return rows.map((r) => {
    const provider = r.provider.trim().toLowerCase();
    const out: ShadowModel = { provider: provider as ShadowModel['provider'], model: provider === 'builtin' ? '' : r.model.trim() };
    if (provider === 'openai' && r.base_url?.trim()) out.base_url = r.base_url.trim();
    return out;
  });
}

/** The checks the form can make before asking the server (which checks them again, and the live model). */
export function validateShadows(rows: ShadowModel[]): FieldErrors {
  const errs: FieldErrors = {};
  if (rows.length > MAX_SHADOWS) errs.shadow_models = `At most ${MAX_SHADOWS} shadow models`;
  rows.forEach((r, i) => {
    if (r.provider !== 'builtin' && !r.model.trim()) errs[`shadow_models.${i}.model`] = 'Model is required';
  });
  return errs;
}

/** The shadows' decisions of each evaluation the leaderboard lists, by evaluation id (the live model's copy left out). */
export function shadowsByEvaluation(board: ShadowLeaderboard | undefined): Map<string, ShadowDecision[]> {
  const out = new Map<string, ShadowDecision[]>();
  for (const c of board?.recent ?? []) out.set(c.evaluation_id, c.decisions.filter((d) => d.role === 'shadow'));
  return out;
}

/** What the figures are computed from, in one sentence. */
export function boardBasis(b: ShadowLeaderboard, fmt: (iso: string) => string): string {
  if (b.evaluations === 0) return 'No decisions with shadow models yet: add shadow models and wait for the next decision (or run Test AI).';
  const span = b.from && b.to ? ` from ${fmt(b.from)} to ${fmt(b.to)}` : '';
  const fee = `${(Number(b.fee) * 100).toFixed(2)}%`;
  return `${b.evaluations} evaluation${b.evaluations === 1 ? '' : 's'} on ${b.symbols.join(', ')}${span}; each model's own calls traded on paper at the candle's close, ${fee} fee per fill${b.truncated ? ' (newest 20,000 decisions only)' : ''}.`;
}
