import type { ReactNode } from 'react';
import { inputClass } from '@/components/Modal';
import type { Draft, FieldErrors, NumberSpec } from '../model';
import { useSymbols } from '@/lib/products';

/** A slider with a number box beside it, both within the spec's bounds; the error shows underneath. */
export function NumberField({ spec, draft, errors, onChange, disabled }: { spec: NumberSpec; draft: Draft; errors: FieldErrors; onChange: (key: string, v: string) => void; disabled?: boolean }) {
  const id = `f-${spec.key.replace('.', '-')}`;
  const raw = draft[spec.key] ?? '';
  const n = Number(raw);
  const err = errors[spec.key];
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-300">
          {spec.label}
        </label>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {spec.min} – {spec.max}
        </span>
      </div>
      <div className="mt-1 flex items-center gap-3">
        <input
          type="range"
          aria-label={`${spec.label} slider`}
          min={spec.min}
          max={spec.max}
          step={spec.step}
          value={Number.isFinite(n) && raw !== '' ? n : spec.min}
          disabled={disabled}
          onChange={(e) => onChange(spec.key, e.target.value)}
          className="h-2 flex-1 cursor-pointer accent-blue-600 disabled:cursor-not-allowed"
        />
        <input
          id={id}
          type="number"
          min={spec.min}
          max={spec.max}
          step={spec.step}
          value={raw}
          disabled={disabled}
          aria-invalid={!!err}
          aria-describedby={err ? `${id}-error` : undefined}
          onChange={(e) => onChange(spec.key, e.target.value)}
          className={`w-24 rounded border bg-white px-2 py-1 text-right text-sm tabular-nums dark:bg-slate-800 ${err ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`}
        />
      </div>
      {err && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {err}
        </p>
      )}
    </div>
  );
}

/** Comma-separated trading pairs. */
export function SymbolsField({ value, onChange, error, disabled }: { value: string; onChange: (v: string) => void; error?: string; disabled?: boolean }) {
  const { symbols } = useSymbols();
  return (
    <div>
      <label htmlFor="f-symbols" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Trading Symbols
      </label>
      <input
        id="f-symbols"
        value={value}
        disabled={disabled}
        placeholder="BTC-USD, ETH-USD"
        aria-invalid={!!error}
        aria-describedby={error ? 'f-symbols-error' : 'f-symbols-help'}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass} ${error ? 'border-red-500' : ''}`}
      />
      {error ? (
        <p id="f-symbols-error" className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : (
        <p id="f-symbols-help" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          Comma-separated, e.g. BTC-USD, ETH-USD{symbols.length > 0 && ` (${listOf(symbols)} trade here)`}.
        </p>
      )}
    </div>
  );
}

/** An on/off switch. */
export function Toggle({ on, label, onClick, disabled }: { on: boolean; label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-50 ${on ? 'bg-emerald-600' : 'bg-slate-300 dark:bg-slate-600'}`}
    >
      <span className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${on ? 'translate-x-5' : 'translate-x-0.5'}`} />
    </button>
  );
}

/** The note beside operator-only actions for everyone else. */
export function OperatorNote({ children = 'Only operators can enable, disable or change strategies.' }: { children?: ReactNode }) {
  return <p className="text-xs text-slate-500 dark:text-slate-400">{children}</p>;
}

export function Badge({ className, children }: { className: string; children: ReactNode }) {
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${className}`}>{children}</span>;
}

export function ActiveBadge({ on }: { on: boolean }) {
  return (
    <Badge className={on ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200' : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'}>
      {on ? 'Active' : 'Inactive'}
    </Badge>
  );
}

/** "A, B and C". */
function listOf(xs: string[]): string {
  return xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}
