import type { ReactNode } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { useStrategies, useStrategyConfig } from '../../strategies/api';
import type { DataPeriod } from '@/lib/coverage';
import { PeriodStatus } from '@/components/PeriodStatus';
import { defaultRow, OBJECTIVES, sweepableParams, type ResearchErrors, type ResearchForm, type SpaceRow } from '../model';
import { useSymbolChoices } from '@/lib/products';

const cls = (err?: string) => `mt-1 w-full rounded border bg-white px-3 py-2 text-sm dark:bg-slate-800 ${err ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`;

function Labelled({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : (
        hint && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>
      )}
    </div>
  );
}

/** The sweep form: strategy, symbol, period, the search space built from the strategy's parameters, objective, constraints, walk-forward. */
export function SweepForm({
  form,
  errors,
  onChange,
  onSubmit,
  running,
  period,
}: {
  form: ResearchForm;
  errors: ResearchErrors;
  onChange: (f: Partial<ResearchForm>) => void;
  onSubmit: () => void;
  running: boolean;
  /** The store's coverage of the symbol: Run waits for it, so a period it has not confirmed is never sent. */
  period: DataPeriod;
}) {
  const strategies = useStrategies();
  const symbols = useSymbolChoices(form.symbol);
  const config = useStrategyConfig(form.strategy_name);
  const params = sweepableParams(form.strategy_name ? (config.data as Record<string, unknown> | undefined) : undefined);
  const unused = params.filter((p) => !form.rows.some((r) => r.name === p.name));
  const setRow = (i: number, r: Partial<SpaceRow>) => onChange({ rows: form.rows.map((x, j) => (j === i ? { ...x, ...r } : x)) });
  const aria = (id: string, err?: string) => ({ id, 'aria-invalid': !!err, 'aria-describedby': err ? `${id}-error` : undefined });
  return (
    <Card title="Sweep">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Labelled id="rs-strategy" label="Strategy" error={errors.strategy_name}>
          <select {...aria('rs-strategy', errors.strategy_name)} className={cls(errors.strategy_name)} value={form.strategy_name} onChange={(e) => onChange({ strategy_name: e.target.value, rows: [] })}>
            <option value="">Select a strategy</option>
            {strategies.data?.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </Labelled>
        <div className="grid grid-cols-2 gap-3">
          <Labelled id="rs-symbol" label="Symbol" error={errors.symbol}>
            <select {...aria('rs-symbol', errors.symbol)} className={cls(errors.symbol)} value={form.symbol} onChange={(e) => onChange({ symbol: e.target.value })}>
              {symbols.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Labelled>
          <Labelled id="rs-capital" label="Initial capital" error={errors.initial_capital}>
            <input {...aria('rs-capital', errors.initial_capital)} className={cls(errors.initial_capital)} inputMode="decimal" value={form.initial_capital} onChange={(e) => onChange({ initial_capital: e.target.value })} />
          </Labelled>
          <Labelled id="rs-start" label="Start date" error={errors.start_date}>
            <input {...aria('rs-start', errors.start_date)} type="date" className={cls(errors.start_date)} value={form.start_date} onChange={(e) => onChange({ start_date: e.target.value })} />
          </Labelled>
          <Labelled id="rs-end" label="End date (exclusive)" error={errors.end_date}>
            <input {...aria('rs-end', errors.end_date)} type="date" className={cls(errors.end_date)} value={form.end_date} onChange={(e) => onChange({ end_date: e.target.value })} />
          </Labelled>
        </div>
        {!errors.start_date && !errors.end_date && <PeriodStatus period={period} className="-mt-2 block" />}

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Search space</legend>
          <div className="flex gap-4 text-sm">
            {(['grid', 'random'] as const).map((s) => (
              <label key={s} className="flex items-center gap-1">
                <input type="radio" name="rs-space" checked={form.space === s} onChange={() => onChange({ space: s })} />
                {s === 'grid' ? 'Grid (every combination)' : 'Random search'}
              </label>
            ))}
          </div>
          {form.rows.map((r, i) => (
            <div key={r.name} className="rounded border border-slate-200 p-2 dark:border-slate-700" data-testid="rs-row">
              <div className="flex items-center justify-between gap-2 text-sm">
                <code className="truncate">{r.name}</code>
                <button type="button" className={btn.small} onClick={() => onChange({ rows: form.rows.filter((_, j) => j !== i) })} aria-label={`Remove ${r.name}`}>
                  Remove
                </button>
              </div>
              {form.space === 'grid' ? (
                <input aria-label={`Values of ${r.name}`} className={cls(errors[`row${i}`])} value={r.values} onChange={(e) => setRow(i, { values: e.target.value })} />
              ) : (
                <div className="grid grid-cols-3 gap-2">
                  {(['min', 'max', 'step'] as const).map((k) => (
                    <input key={k} aria-label={`${k} of ${r.name}`} placeholder={k} className={cls(errors[`row${i}`])} value={r[k]} onChange={(e) => setRow(i, { [k]: e.target.value })} />
                  ))}
                </div>
              )}
              {errors[`row${i}`] && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors[`row${i}`]}</p>}
            </div>
          ))}
          {form.strategy_name && (
            <select
              aria-label="Add a parameter"
              className={cls(errors.space)}
              value=""
              onChange={(e) => {
                const p = params.find((x) => x.name === e.target.value);
                if (p) onChange({ rows: [...form.rows, defaultRow(p.name, p.value)] });
              }}
            >
              <option value="">{unused.length ? 'Add a parameter to vary…' : 'Every parameter is in the space'}</option>
              {unused.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} (now {p.value})
                </option>
              ))}
            </select>
          )}
          {(errors.space ?? errors.grid ?? errors.random) && <p className="text-xs text-red-600 dark:text-red-400">{errors.space ?? errors.grid ?? errors.random}</p>}
          {form.space === 'random' && (
            <div className="grid grid-cols-2 gap-3">
              <Labelled id="rs-trials" label="Trials" error={errors.trials}>
                <input {...aria('rs-trials', errors.trials)} className={cls(errors.trials)} inputMode="numeric" value={form.trials} onChange={(e) => onChange({ trials: e.target.value })} />
              </Labelled>
              <Labelled id="rs-seed" label="Seed" hint="The same seed draws the same trials">
                <input id="rs-seed" className={cls()} inputMode="numeric" value={form.seed} onChange={(e) => onChange({ seed: e.target.value })} />
              </Labelled>
            </div>
          )}
        </fieldset>

        <div className="grid grid-cols-2 gap-3">
          <Labelled id="rs-objective" label="Objective" error={errors.objective}>
            <select id="rs-objective" className={cls(errors.objective)} value={form.objective} onChange={(e) => onChange({ objective: e.target.value })}>
              {OBJECTIVES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Labelled>
          <Labelled id="rs-min-trades" label="Minimum trades" error={errors.min_trades} hint="Fewer closed trades: never the best">
            <input {...aria('rs-min-trades', errors.min_trades)} className={cls(errors.min_trades)} inputMode="numeric" value={form.min_trades} onChange={(e) => onChange({ min_trades: e.target.value })} />
          </Labelled>
        </div>
        <Labelled id="rs-pbo-blocks" label="Overfitting check: blocks" error={errors.pbo_blocks} hint="The period is cut into this many blocks; every half of them is tried as in sample">
          <select {...aria('rs-pbo-blocks', errors.pbo_blocks)} className={cls(errors.pbo_blocks)} value={form.pbo_blocks} onChange={(e) => onChange({ pbo_blocks: e.target.value })}>
            {[2, 4, 6, 8, 10, 12, 14, 16].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </Labelled>

        <fieldset className="space-y-2">
          <label className="flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" checked={form.walk_forward} onChange={(e) => onChange({ walk_forward: e.target.checked })} />
            Walk-forward validation
          </label>
          {form.walk_forward && (
            <div className="grid grid-cols-3 gap-2">
              <Labelled id="rs-wf-mode" label="Mode" error={errors['walk_forward.mode']}>
                <select id="rs-wf-mode" className={cls(errors['walk_forward.mode'])} value={form.wf_mode} onChange={(e) => onChange({ wf_mode: e.target.value as ResearchForm['wf_mode'] })}>
                  <option value="rolling">Rolling</option>
                  <option value="anchored">Anchored</option>
                </select>
              </Labelled>
              <Labelled id="rs-wf-folds" label="Folds" error={errors['walk_forward.folds']}>
                <input {...aria('rs-wf-folds', errors['walk_forward.folds'])} className={cls(errors['walk_forward.folds'])} inputMode="numeric" value={form.wf_folds} onChange={(e) => onChange({ wf_folds: e.target.value })} />
              </Labelled>
              <Labelled id="rs-wf-fraction" label="In-sample share" error={errors['walk_forward.in_sample_fraction']}>
                <input
                  {...aria('rs-wf-fraction', errors['walk_forward.in_sample_fraction'])}
                  className={cls(errors['walk_forward.in_sample_fraction'])}
                  inputMode="decimal"
                  value={form.wf_fraction}
                  onChange={(e) => onChange({ wf_fraction: e.target.value })}
                />
              </Labelled>
            </div>
          )}
        </fieldset>
        <button type="submit" className={`${btn.primary} w-full`} disabled={running || !period.known}>
          {running ? 'Submitting…' : 'Run Sweep'}
        </button>
      </form>
    </Card>
  );
}
