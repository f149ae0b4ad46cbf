import { btn, inputClass } from '@/components/Modal';
import type { FieldErrors } from '../../strategies/model';
import { MAX_SHADOWS, SHADOW_PROVIDERS } from '../shadowModel';
import type { ShadowModel } from '../types';

const PROVIDER_LABEL: Record<string, string> = { builtin: 'Built-in analyst', openai: 'OpenAI-compatible', replicate: 'Replicate' };

/**
 * Shadow models (strategy/shadowconfig.go): asked the live model's prompt at each decision, recorded beside
 * it and never traded. Saved with the rest of the form, as a new version.
 */
export function ShadowModels({ value, errors, onChange, disabled }: { value: ShadowModel[]; errors: FieldErrors; onChange: (rows: ShadowModel[]) => void; disabled: boolean }) {
  const set = (i: number, patch: Partial<ShadowModel>) => onChange(value.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-3" data-testid="shadow-models">
      <legend className="mb-2 text-sm font-semibold">Shadow models</legend>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Each is asked the same prompt at the same time as the live model; its decisions are recorded beside the live one and never traded. Their calls count toward
        each provider&apos;s spend and monthly budget. A shadow uses the API settings&apos; token only on the same provider and host. At most {MAX_SHADOWS}.
      </p>
      {value.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No shadow models.</p>}
      {value.map((r, i) => {
        const err = (k: string) => errors[`shadow_models.${i}.${k}`];
        const id = `f-shadow-${i}`;
        return (
          <div key={i} className="grid items-start gap-2 md:grid-cols-[12rem_1fr_1fr_auto]" data-testid="shadow-row">
            <div>
              <label htmlFor={`${id}-provider`} className="sr-only">
                Shadow {i + 1} provider
              </label>
              <select id={`${id}-provider`} value={r.provider} disabled={disabled} onChange={(e) => set(i, { provider: e.target.value as ShadowModel['provider'] })} className={inputClass} aria-invalid={!!err('provider')}>
                {SHADOW_PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {PROVIDER_LABEL[p]}
                  </option>
                ))}
              </select>
              {err('provider') && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{err('provider')}</p>}
            </div>
            <div>
              <label htmlFor={`${id}-model`} className="sr-only">
                Shadow {i + 1} model
              </label>
              <input
                id={`${id}-model`}
                value={r.provider === 'builtin' ? '' : r.model}
                placeholder={r.provider === 'builtin' ? 'no model to choose' : 'model, e.g. gpt-4.1-mini'}
                disabled={disabled || r.provider === 'builtin'}
                onChange={(e) => set(i, { model: e.target.value })}
                className={inputClass}
                aria-invalid={!!err('model')}
              />
              {err('model') && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{err('model')}</p>}
            </div>
            <div>
              <label htmlFor={`${id}-base_url`} className="sr-only">
                Shadow {i + 1} base URL
              </label>
              <input
                id={`${id}-base_url`}
                value={r.base_url ?? ''}
                placeholder={r.provider === 'openai' ? 'own base URL (optional)' : ''}
                disabled={disabled || r.provider !== 'openai'}
                onChange={(e) => set(i, { base_url: e.target.value })}
                className={inputClass}
                aria-invalid={!!err('base_url')}
              />
              {err('base_url') && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{err('base_url')}</p>}
            </div>
            <button type="button" className={btn.secondary} disabled={disabled} onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={`Remove shadow ${i + 1}`}>
              Remove
            </button>
          </div>
        );
      })}
      {errors.shadow_models && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {errors.shadow_models}
        </p>
      )}
      <button type="button" className={btn.secondary} disabled={disabled || value.length >= MAX_SHADOWS} onClick={() => onChange([...value, { provider: 'openai', model: '' }])}>
        Add shadow model
      </button>
    </fieldset>
  );
}
