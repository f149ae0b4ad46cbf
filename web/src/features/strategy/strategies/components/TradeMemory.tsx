import { MEMORY, type FieldErrors, type MemoryDraft } from '../model';
import { Toggle } from './controls';

const numberClass = (err?: string) =>
  `mt-1 w-28 rounded border bg-white px-2 py-1 text-right text-sm tabular-nums disabled:opacity-60 dark:bg-slate-800 ${err ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`;

/** One number of the memory group, with its range and the server's message underneath. */
function MemoryNumber({ id, label, range, value, min, max, step, error, disabled, onChange }: { id: string; label: string; range: string; value: string; min: number; max: number; step: number; error?: string; disabled: boolean; onChange: (v: string) => void }) {
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-300">
          {label}
        </label>
        <span className="text-xs text-slate-500 dark:text-slate-400">{range}</span>
      </div>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        step={step}
        value={value}
        disabled={disabled}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={numberClass(error)}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Trade memory (strategy/memory.go): off by default; on, the prompt lists the
 * instance's own last closed trades in the symbol within a token budget.
 * Saved with the rest of the form, as a new version.
 */
export function TradeMemory({ value, errors, onChange, disabled }: { value: MemoryDraft; errors: FieldErrors; onChange: (m: Partial<MemoryDraft>) => void; disabled: boolean }) {
  const off = disabled || !value.on;
  return (
    <fieldset className="space-y-3" data-testid="trade-memory">
      <legend className="mb-2 text-sm font-semibold">Trade memory</legend>
      <div className="flex items-center gap-3">
        <Toggle on={value.on} label="Trade memory" disabled={disabled} onClick={() => onChange({ on: !value.on })} />
        <span className="text-sm">{value.on ? 'On' : 'Off'}</span>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        The prompt lists this strategy&apos;s own last {value.trades || 'N'} closed trades in the symbol, with the reasoning it gave, within about {value.maxTokens || 'M'} tokens; backtests
        rebuild it from their own trades.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <MemoryNumber
          id="f-memory-trades"
          label="Trades remembered"
          range={`1 – ${MEMORY.maxTrades}`}
          value={value.trades}
          min={1}
          max={MEMORY.maxTrades}
          step={1}
          error={errors['memory.trades']}
          disabled={off}
          onChange={(trades) => onChange({ trades })}
        />
        <MemoryNumber
          id="f-memory-max_tokens"
          label="Token budget"
          range={`${MEMORY.minTokens} – ${MEMORY.maxTokens}`}
          value={value.maxTokens}
          min={MEMORY.minTokens}
          max={MEMORY.maxTokens}
          step={50}
          error={errors['memory.max_tokens']}
          disabled={off}
          onChange={(maxTokens) => onChange({ maxTokens })}
        />
      </div>
      {errors.prompt_version && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {errors.prompt_version}
        </p>
      )}
    </fieldset>
  );
}
