import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { strategyQueries } from '../../strategies/api';
import { getAt, overrideFields, setAt } from '../overrides';
import { TIMEFRAMES } from '../../strategies/types';

/** Parses the form's overrides: an object, {} when empty, null when not a JSON object. */
function parsed(raw: string): Record<string, unknown> | null {
  if (!raw.trim()) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * One input per parameter of the chosen strategy, its saved value as the
 * placeholder: a value typed overrides it for this run only, an empty field
 * keeps it. The fields edit the same JSON the text box below shows.
 */
export function OverridesForm({ strategy, params, onChange }: { strategy: string; params: string; onChange: (json: string) => void }) {
  const cfg = useQuery({ ...strategyQueries.config(strategy), enabled: strategy !== '' });
  // What was typed, so "0." or "0.50" stay as typed while the overrides hold the number.
  const [typed, setTyped] = useState<Record<string, string>>({});
  if (!strategy) return <p className="text-xs text-slate-500 dark:text-slate-400">Select a strategy to override its parameters.</p>;
  if (cfg.isPending) return <p className="text-xs text-slate-500 dark:text-slate-400">Loading the strategy's parameters…</p>;
  if (cfg.isError || !cfg.data) return <p className="text-xs text-red-600 dark:text-red-400">Failed to load the strategy's parameters</p>;
  const current = parsed(params);
  const set = (path: string[], v: unknown) => {
    const next = setAt(current ?? {}, path, v);
    onChange(Object.keys(next).length ? JSON.stringify(next) : '');
  };
  return (
    <fieldset className="grid grid-cols-2 gap-2" aria-label="Parameter overrides" disabled={current === null} data-testid="bt-overrides">
      {overrideFields(cfg.data).map((f) => {
        const id = `bt-ov-${f.path.join('-')}`;
        const v = getAt(current ?? {}, f.path);
        const overridden = v !== undefined;
        const cls = `mt-0.5 w-full rounded border bg-white px-2 py-1 text-sm dark:bg-slate-800 ${overridden ? 'border-blue-500 font-semibold' : 'border-slate-300 dark:border-slate-700'}`;
        return (
          <div key={id} className="min-w-0">
            <label htmlFor={id} className="block truncate text-xs text-slate-600 dark:text-slate-400">
              {f.label}
            </label>
            {f.kind === 'timeframe' ? (
              <select id={id} className={cls.replace('text-sm', 'text-xs')} value={typeof v === 'string' ? v : ''} onChange={(e) => set(f.path, e.target.value || undefined)}>
                <option value="">{String(f.saved)} (saved)</option>
                {TIMEFRAMES.filter((t) => t !== f.saved).map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                type="number"
                step="any"
                className={cls}
                placeholder={String(f.saved)}
                value={typed[id] !== undefined && typed[id] !== '' && Number(typed[id]) === v ? typed[id] : typeof v === 'number' || typeof v === 'string' ? String(v) : ''}
                onChange={(e) => {
                  const raw = e.target.value;
                  setTyped((t) => ({ ...t, [id]: raw }));
                  set(f.path, raw.trim() === '' || !Number.isFinite(Number(raw)) ? undefined : Number(raw));
                }}
              />
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
