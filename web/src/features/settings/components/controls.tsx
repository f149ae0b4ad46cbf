import { createContext, useContext, useState, type ReactNode } from 'react';
import { effectOf, getIn, type Bound } from '../model';
import type { PlatformSettings } from '../types';

/** What every settings control needs: the edited document and how to change it. */
export interface SettingsForm {
  settings: PlatformSettings;
  set: (path: string, value: unknown) => void;
  effects: Record<string, string> | null;
  /** Validation errors by dotted field name, shown under the field. */
  fieldErrors: Record<string, string>;
}

export const SettingsFormContext = createContext<SettingsForm | null>(null);
const GroupContext = createContext<string | null>(null);

function useForm(): SettingsForm {
  const f = useContext(SettingsFormContext);
  if (!f) throw new Error('settings controls need a SettingsFormContext');
  return f;
}

/** The settings form, for controls that edit more than one path (the AI price table). */
export const useSettingsForm = useForm;

export const inputClass =
  'mt-1 w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm disabled:opacity-60 dark:border-slate-700 dark:bg-slate-800';
export const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-300';

export const STORED_NOTE = 'Saved; not yet applied by this build';

/** The muted note for keys the server stores but does not act on yet. */
export function StoredNote() {
  return <span className="text-xs italic text-slate-500 dark:text-slate-400">{STORED_NOTE}</span>;
}

/** Shows the note when path is "stored" and its group does not already say so. */
function useStoredNote(path: string): boolean {
  const { effects } = useForm();
  const group = useContext(GroupContext);
  if (effectOf(effects, path) !== 'stored') return false;
  return !(group && effectOf(effects, group) === 'stored');
}

function fieldId(path: string) {
  return `settings-${path.replace(/\./g, '-')}`;
}

function FieldFooter({ path, hint }: { path: string; hint?: string }) {
  const { fieldErrors } = useForm();
  const stored = useStoredNote(path);
  const error = fieldErrors[path];
  return (
    <>
      {hint && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {stored && (
        <p className="mt-1">
          <StoredNote />
        </p>
      )}
      {error && (
        <p id={`${fieldId(path)}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}

/** A titled block of fields; its effect key covers the fields inside. */
export function Group({ title, effectKey, children }: { title: string; effectKey: string; children: ReactNode }) {
  const { effects } = useForm();
  const stored = effectOf(effects, effectKey) === 'stored';
  return (
    <GroupContext.Provider value={effectKey}>
      <fieldset className="rounded-md border border-slate-200 p-4 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold text-slate-700 dark:text-slate-200">
          {title}
          {stored && (
            <span className="ml-2 font-normal">
              <StoredNote />
            </span>
          )}
        </legend>
        <div className="grid gap-4 sm:grid-cols-2">{children}</div>
      </fieldset>
    </GroupContext.Provider>
  );
}

export function TextInput({ path, label, type = 'text', placeholder, hint, autoComplete }: { path: string; label: string; type?: 'text' | 'password'; placeholder?: string; hint?: string; autoComplete?: string }) {
  const { settings, set, fieldErrors } = useForm();
  const id = fieldId(path);
  const v = getIn(settings, path.split('.'));
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        className={inputClass}
        value={typeof v === 'string' ? v : ''}
        placeholder={placeholder}
        autoComplete={autoComplete ?? 'off'}
        aria-invalid={!!fieldErrors[path]}
        onChange={(e) => set(path, e.target.value)}
      />
      <FieldFooter path={path} hint={hint} />
    </div>
  );
}

/** A number input with bounds; the text is kept while typing and committed when it parses. */
export function NumberInput({ path, label, bound, hint }: { path: string; label: string; bound: Bound; hint?: string }) {
  const { settings, set, fieldErrors } = useForm();
  const [text, setText] = useState<string | null>(null);
  const id = fieldId(path);
  const scale = bound.scale ?? 1;
  const raw = getIn(settings, path.split('.'));
  const value = typeof raw === 'number' ? String(Number((raw / scale).toPrecision(12))) : '';
  const range = bound.max === undefined ? `min ${bound.min}` : `${bound.min}–${bound.max}`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
        {bound.unit ? <span className="font-normal text-slate-500 dark:text-slate-400"> ({bound.unit})</span> : null}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        className={inputClass}
        min={bound.min}
        max={bound.max}
        step={bound.step}
        value={text ?? value}
        aria-invalid={!!fieldErrors[path]}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const n = Number(t);
          if (t.trim() !== '' && Number.isFinite(n)) set(path, Number((n * scale).toPrecision(12)));
        }}
        onBlur={() => setText(null)}
      />
      <FieldFooter path={path} hint={hint ?? `Allowed: ${range}`} />
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
}

export function toChoices(values: readonly (string | number)[], labels?: Record<string, string>): Choice[] {
  return values.map((v) => ({ value: String(v), label: labels?.[String(v)] ?? String(v) }));
}

export function SelectInput({ path, label, choices, numeric = false, hint }: { path: string; label: string; choices: Choice[]; numeric?: boolean; hint?: string }) {
  const { settings, set, fieldErrors } = useForm();
  const id = fieldId(path);
  const raw = getIn(settings, path.split('.'));
  const value = raw === undefined || raw === null ? '' : String(raw);
  // Keep a stored value that is not among the choices visible rather than silently showing another.
  const all = value !== '' && !choices.some((c) => c.value === value) ? [...choices, { value, label: value }] : choices;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        aria-invalid={!!fieldErrors[path]}
        onChange={(e) => set(path, numeric ? Number(e.target.value) : e.target.value)}
      >
        {all.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <FieldFooter path={path} hint={hint} />
    </div>
  );
}

export function Toggle({ path, label, hint }: { path: string; label: string; hint?: string }) {
  const { settings, set } = useForm();
  const id = fieldId(path);
  const checked = getIn(settings, path.split('.')) === true;
  return (
    <div>
      <label htmlFor={id} className="flex cursor-pointer items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
        <input id={id} type="checkbox" className="h-4 w-4 accent-blue-600" checked={checked} onChange={(e) => set(path, e.target.checked)} />
        {label}
      </label>
      <FieldFooter path={path} hint={hint} />
    </div>
  );
}

export function SectionHeader({ title, description, onReset, resetting }: { title: string; description: string; onReset: () => void; resetting: boolean }) {
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
      </div>
      <button type="button" className={secondaryButton} onClick={onReset} disabled={resetting}>
        Reset to Defaults
      </button>
    </div>
  );
}

export const secondaryButton =
  'rounded border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700';
export const primaryButton =
  'rounded bg-blue-600 px-3 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50';
export const dangerButton =
  'rounded border border-red-300 bg-white px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-red-800 dark:bg-slate-800 dark:text-red-300 dark:hover:bg-red-950';

export function Unavailable({ message }: { message: string }) {
  return <p className="text-sm text-slate-500 dark:text-slate-400">{message}</p>;
}
