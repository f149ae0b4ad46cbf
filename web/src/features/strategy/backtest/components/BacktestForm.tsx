import { useState, type ReactNode } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { useIsOperator, useStrategies } from '../../strategies/api';
import { AI_MODES, MC_METHODS, MC_RUNS, usesAI, type BacktestErrors, type BacktestForm as Form } from '../model';
import type { AIMode } from '../types';
import type { DataPeriod } from '@/lib/coverage';
import { PeriodStatus } from '@/components/PeriodStatus';
import { OverridesForm } from './OverridesForm';
import { useSymbolChoices } from '@/lib/products';

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

const cls = (err?: string) => `mt-1 w-full rounded border bg-white px-3 py-2 text-sm dark:bg-slate-800 ${err ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`;
const aria = (id: string, err?: string) => ({ id, 'aria-invalid': !!err, 'aria-describedby': err ? `${id}-error` : undefined });

/** The configuration form: strategy, symbol, period, capital and optional parameter overrides. */
export function BacktestForm({
  form,
  errors,
  onChange,
  onSubmit,
  running,
  period,
}: {
  form: Form;
  errors: BacktestErrors;
  onChange: (k: keyof Form, v: string) => void;
  onSubmit: () => void;
  running: boolean;
  /** The store's coverage of the symbol: Run waits for it, so a period it has not confirmed is never sent. */
  period: DataPeriod;
}) {
  const strategies = useStrategies();
  const [advanced, setAdvanced] = useState(false);
  const symbols = useSymbolChoices();
  // Overrides in the form (typed, or from an opened run) stay in view.
  const shown = advanced || form.params.trim() !== '';
  const dateError = errors.start_date ?? errors.end_date;
  const typeOf = (name: string) => strategies.data?.find((s) => s.name === name)?.type;
  const ai = usesAI(typeOf(form.strategy_name));
  const mode = AI_MODES.find((m) => m.value === form.ai_mode);
  // A live model spends the platform's AI budget: the server refuses it to traders (403).
  const operator = useIsOperator();
  return (
    <Card title="Backtest Configuration">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Labelled id="bt-strategy" label="Strategy" error={errors.strategy_name}>
          <select {...aria('bt-strategy', errors.strategy_name)} value={form.strategy_name} onChange={(e) => {
              onChange('strategy_name', e.target.value);
              if (!usesAI(typeOf(e.target.value))) onChange('ai_mode', 'builtin');
            }}
            className={cls(errors.strategy_name)}
          >
            <option value="">{strategies.isPending ? 'Loading strategies…' : 'Select a strategy'}</option>
            {strategies.data?.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({s.type})
              </option>
            ))}
          </select>
        </Labelled>
        {strategies.isError && <p className="text-xs text-red-600 dark:text-red-400">Failed to load strategies</p>}
        {ai && (
          <Labelled id="bt-ai-mode" label="AI decisions" error={errors.ai_mode} hint={mode?.hint}>
            <select {...aria('bt-ai-mode', errors.ai_mode)} value={form.ai_mode} onChange={(e) => onChange('ai_mode', e.target.value as AIMode)} className={cls(errors.ai_mode)}>
              {AI_MODES.map((m) => (
                <option key={m.value} value={m.value} disabled={m.value === 'live' && !operator}>
                  {m.value === 'live' && !operator ? `${m.label} (operators only)` : m.label}
                </option>
              ))}
            </select>
          </Labelled>
        )}
        <Labelled id="bt-symbol" label="Symbol" error={errors.symbol}>
          <input {...aria('bt-symbol', errors.symbol)} list="bt-symbols" value={form.symbol} onChange={(e) => onChange('symbol', e.target.value)} className={cls(errors.symbol)} placeholder="BTC-USD" />
          <datalist id="bt-symbols">
            {symbols.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </Labelled>
        <div className="grid grid-cols-2 gap-3">
          <Labelled id="bt-start" label="Start Date" error={errors.start_date}>
            <input {...aria('bt-start', errors.start_date)} type="date" value={form.start_date} onChange={(e) => onChange('start_date', e.target.value)} className={cls(errors.start_date)} />
          </Labelled>
          <Labelled id="bt-end" label="End Date" error={errors.end_date}>
            <input {...aria('bt-end', errors.end_date)} type="date" value={form.end_date} onChange={(e) => onChange('end_date', e.target.value)} className={cls(errors.end_date)} />
          </Labelled>
        </div>
        {!dateError && <PeriodStatus period={period} className="-mt-2" />}
        <Labelled id="bt-capital" label="Initial Capital (USD)" error={errors.initial_capital}>
          <input {...aria('bt-capital', errors.initial_capital)} type="number" min={1000} step={1000} value={form.initial_capital} onChange={(e) => onChange('initial_capital', e.target.value)} className={cls(errors.initial_capital)} />
        </Labelled>
        <Labelled id="bt-slippage" label="Slippage (basis points)" error={errors.slippage_bps}>
          <input {...aria('bt-slippage', errors.slippage_bps)} type="number" min={0} max={1000} step={1} value={form.slippage_bps} onChange={(e) => onChange('slippage_bps', e.target.value)} className={cls(errors.slippage_bps)} />
        </Labelled>
        <Labelled id="bt-volume-cap" label="Volume cap (% of a candle's volume, empty: none)" error={errors.volume_cap_pct}>
          <input {...aria('bt-volume-cap', errors.volume_cap_pct)} type="number" min={0} max={100} step={0.1} value={form.volume_cap_pct} onChange={(e) => onChange('volume_cap_pct', e.target.value)} className={cls(errors.volume_cap_pct)} />
        </Labelled>
        <MonteCarloFields form={form} errors={errors} onChange={onChange} />
        <div>
          {form.params.trim() === '' && (
            <button type="button" aria-expanded={advanced} onClick={() => setAdvanced((a) => !a)} className="text-xs font-medium text-blue-600 hover:underline dark:text-blue-400">
              {advanced ? 'Hide parameter overrides' : 'Parameter overrides (optional)'}
            </button>
          )}
          {shown && (
            <div className="space-y-2">
              <p className="text-xs text-slate-500 dark:text-slate-400">For this run only; the saved strategy is unchanged. An empty field keeps the saved value.</p>
              <OverridesForm strategy={form.strategy_name} params={form.params} onChange={(json) => onChange('params', json)} />
              <Labelled
                id="bt-params"
                label="Parameter overrides (JSON)"
                error={errors.params}
                hint={<>The same overrides as JSON, e.g. {'{"indicators": {"rsi_oversold": 40}}'}; a key the strategy does not have is refused.</>}
              >
                <textarea {...aria('bt-params', errors.params)} rows={3} value={form.params} onChange={(e) => onChange('params', e.target.value)} className={`${cls(errors.params)} font-mono text-xs`} placeholder='{"timeframe": "FIFTEEN_MINUTE"}' />
              </Labelled>
            </div>
          )}
        </div>
        <button type="submit" disabled={running || !period.known} className={`${btn.primary} w-full`}>
          {running ? 'Running Backtest…' : 'Run Backtest'}
        </button>
      </form>
    </Card>
  );
}

/**
 * The optional Monte Carlo of the run's closed trades: off while runs is
 * empty; the report then adds the spread of final equity and drawdown over
 * that many reshuffled or resampled trade sequences.
 */
function MonteCarloFields({ form, errors, onChange }: { form: Form; errors: BacktestErrors; onChange: (k: keyof Form, v: string) => void }) {
  const [open, setOpen] = useState(false);
  const on = form.mc_runs.trim() !== '';
  const method = MC_METHODS.find((m) => m.value === form.mc_method);
  if (!open && !on) {
    return (
      <button type="button" aria-expanded={false} onClick={() => setOpen(true)} className="text-xs font-medium text-blue-600 hover:underline dark:text-blue-400">
        Monte Carlo of the trades (optional)
      </button>
    );
  }
  return (
    <fieldset className="space-y-3 rounded border border-slate-200 p-3 dark:border-slate-700" data-testid="bt-mc-fields">
      <legend className="px-1 text-sm font-medium text-slate-700 dark:text-slate-300">Monte Carlo of the trades</legend>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Replays the run&apos;s closed trades many times in other orders or draws, to show how much of the result is luck of sequence. Leave the runs empty for none.
      </p>
      <div className="grid grid-cols-2 gap-3">
        <Labelled id="bt-mc-runs" label="Runs" error={errors.mc_runs} hint={`${MC_RUNS.min} to ${MC_RUNS.max.toLocaleString('en-US')}`}>
          <input {...aria('bt-mc-runs', errors.mc_runs)} type="number" min={MC_RUNS.min} max={MC_RUNS.max} step={100} value={form.mc_runs} placeholder="none" onChange={(e) => onChange('mc_runs', e.target.value)} className={cls(errors.mc_runs)} />
        </Labelled>
        <Labelled id="bt-mc-method" label="Method" error={errors.mc_method}>
          <select {...aria('bt-mc-method', errors.mc_method)} value={form.mc_method} onChange={(e) => onChange('mc_method', e.target.value)} className={cls(errors.mc_method)}>
            {MC_METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </Labelled>
        <Labelled id="bt-mc-seed" label="Seed" error={errors.mc_seed} hint="The same seed gives the same figures">
          <input {...aria('bt-mc-seed', errors.mc_seed)} type="number" min={0} step={1} value={form.mc_seed} onChange={(e) => onChange('mc_seed', e.target.value)} className={cls(errors.mc_seed)} />
        </Labelled>
        <Labelled id="bt-mc-ruin" label="Ruin at a drawdown of (%)" error={errors.mc_ruin_pct}>
          <input {...aria('bt-mc-ruin', errors.mc_ruin_pct)} type="number" min={1} max={100} step={1} value={form.mc_ruin_pct} onChange={(e) => onChange('mc_ruin_pct', e.target.value)} className={cls(errors.mc_ruin_pct)} />
        </Labelled>
      </div>
      {method && <p className="text-xs text-slate-500 dark:text-slate-400">{method.hint}</p>}
    </fieldset>
  );
}
