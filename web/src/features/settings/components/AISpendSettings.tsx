import { useId, useState } from 'react';
import type { AIProviderSettings } from '../types';
import { inputClass, labelClass, secondaryButton, useSettingsForm } from './controls';

/** The element the AI Configuration screen's spend card links to (/settings#…). */
export const AI_SPEND_ANCHOR = 'ai-spend-settings';

type Pricing = NonNullable<AIProviderSettings['pricing']>;
type Budgets = NonNullable<AIProviderSettings['monthlyBudget']>;

/** A plain decimal as the server reads prices and budgets (a leading minus reaches the server, which explains it). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
export const DECIMAL_HINT = 'Enter a number in USD, e.g. 0.15';

const PROVIDER_LABELS: Record<string, string> = { builtin: 'Built-in analyst', replicate: 'Replicate', openai: 'OpenAI-compatible' };

/**
 * A USD amount kept as exact decimal text (never a float): the text is kept while typing and
 * committed when it is a number; empty commits undefined.
 */
function DecimalInput({ id, label, value, error, onCommit, placeholder, optional = false }: { id: string; label: string; value: string | number | undefined; error?: string; onCommit: (v: string | undefined) => void; placeholder?: string; optional?: boolean }) {
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? (value === undefined ? '' : String(value));
  const empty = shown.trim() === '';
  const malformed = empty ? !optional : !DECIMAL.test(shown.trim());
  const message = malformed ? DECIMAL_HINT : error;
  return (
    <>
      <input
        id={id}
        aria-label={label}
        type="text"
        inputMode="decimal"
        className={inputClass}
        value={shown}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          if (t.trim() === '') {
            if (optional) onCommit(undefined);
          } else if (DECIMAL.test(t.trim())) onCommit(t.trim());
        }}
        onBlur={() => {
          if (!malformed) setText(null);
        }}
      />
      {message && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </>
  );
}

/**
 * api.ai.pricing (USD per million input and output tokens, by model) and api.ai.monthlyBudget
 * (USD per calendar month, by provider), with the server's validation messages by field.
 */
export function AISpendSettings({ providers, models }: { providers: string[]; models: string[] }) {
  const { settings, set, fieldErrors } = useSettingsForm();
  const ai = settings.api?.ai;
  const pricing: Pricing = ai?.pricing ?? {};
  const budgets: Budgets = ai?.monthlyBudget ?? {};
  const names = Object.keys(pricing).sort();
  const id = useId();

  const setPrice = (model: string, side: 'input' | 'output', v: string | undefined) => {
    const cur = pricing[model];
    if (!cur || v === undefined) return;
    set('api.ai.pricing', { ...pricing, [model]: { ...cur, [side]: v } });
  };
  const remove = (model: string) => {
    const next = { ...pricing };
    delete next[model];
    set('api.ai.pricing', next);
  };
  const setBudget = (provider: string, v: string | undefined) => {
    const next = { ...budgets };
    if (v === undefined) delete next[provider];
    else next[provider] = v;
    set('api.ai.monthlyBudget', next);
  };
  // The built-in analyst costs nothing: its budget is offered only when one is already set.
  const budgetProviders = providers.filter((p) => p !== 'builtin' || budgets[p] !== undefined);
  const tableError = fieldErrors['api.ai.pricing'];

  return (
    <div id={AI_SPEND_ANCHOR} className="sm:col-span-2 space-y-6 scroll-mt-4">
      <section aria-labelledby={`${id}-prices`} className="space-y-2">
        <h3 id={`${id}-prices`} className={labelClass}>
          Model prices <span className="font-normal text-slate-500 dark:text-slate-400">(USD per million tokens)</span>
        </h3>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Each AI decision&apos;s cost is its tokens at these prices, by the model it records (the provider&apos;s reported model, e.g.
          openai/gpt-4.1-nano, or the configured option). A model without a price has an unknown cost, never $0.
        </p>
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-slate-500 dark:text-slate-400">
                <th className="pr-2 font-medium">Model</th>
                <th className="pr-2 font-medium">Input</th>
                <th className="pr-2 font-medium">Output</th>
                <th className="font-medium">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {names.length === 0 && (
                <tr>
                  <td colSpan={4} className="py-2 text-slate-500 dark:text-slate-400">
                    No prices yet: every AI decision&apos;s cost is unknown.
                  </td>
                </tr>
              )}
              {names.map((m) => {
                const p = pricing[m]!;
                const err = fieldErrors[`api.ai.pricing.${m}`];
                return (
                  <tr key={m} className="border-t border-slate-200 align-top dark:border-slate-700">
                    <td className="py-2 pr-2 font-mono text-xs">
                      <span className="mt-3 inline-block break-all">{m}</span>
                    </td>
                    <td className="py-1 pr-2">
                      <DecimalInput id={`${id}-in-${m}`} label={`Input price of ${m}`} value={p.input} error={err} onCommit={(v) => setPrice(m, 'input', v)} />
                    </td>
                    <td className="py-1 pr-2">
                      <DecimalInput id={`${id}-out-${m}`} label={`Output price of ${m}`} value={p.output} onCommit={(v) => setPrice(m, 'output', v)} />
                    </td>
                    <td className="py-1">
                      <button type="button" className={`${secondaryButton} mt-1`} aria-label={`Remove the price of ${m}`} onClick={() => remove(m)}>
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {tableError && <p className="text-xs text-red-600 dark:text-red-400">{tableError}</p>}
        <AddPrice known={names} models={models} onAdd={(m, input, output) => set('api.ai.pricing', { ...pricing, [m]: { input, output } })} />
      </section>

      <section aria-labelledby={`${id}-budgets`} className="space-y-2">
        <h3 id={`${id}-budgets`} className={labelClass}>
          Monthly budget <span className="font-normal text-slate-500 dark:text-slate-400">(USD per calendar month, UTC)</span>
        </h3>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          When a provider&apos;s AI decisions this month (Test AI included) cost this much, its decisions pause with an alert until the next
          month or a higher budget. Empty: no budget.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          {budgetProviders.map((p) => (
            <div key={p}>
              <label htmlFor={`${id}-budget-${p}`} className={labelClass}>
                {PROVIDER_LABELS[p] ?? p}
              </label>
              <DecimalInput
                id={`${id}-budget-${p}`}
                label={`Monthly budget for ${PROVIDER_LABELS[p] ?? p}`}
                value={budgets[p]}
                placeholder="No budget"
                optional
                error={fieldErrors[`api.ai.monthlyBudget.${p}`]}
                onCommit={(v) => setBudget(p, v)}
              />
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}

/** A new row of the price table: a model not priced yet, with both prices. */
function AddPrice({ known, models, onAdd }: { known: string[]; models: string[]; onAdd: (model: string, input: string, output: string) => void }) {
  const [model, setModel] = useState('');
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const id = useId();
  const name = model.trim();
  const duplicate = known.includes(name);
  const bad = [input, output].some((v) => v.trim() !== '' && !DECIMAL.test(v.trim()));
  const ready = name !== '' && !duplicate && DECIMAL.test(input.trim()) && DECIMAL.test(output.trim());
  const suggestions = models.filter((m) => !known.includes(m));
  return (
    <div className="flex flex-wrap items-end gap-2 rounded border border-dashed border-slate-300 p-2 dark:border-slate-700">
      <div className="min-w-40 flex-1">
        <label htmlFor={`${id}-model`} className="text-xs text-slate-600 dark:text-slate-400">
          Model to price
        </label>
        <input id={`${id}-model`} className={inputClass} list={`${id}-models`} value={model} placeholder="openai/gpt-4.1-nano" autoComplete="off" onChange={(e) => setModel(e.target.value)} />
        <datalist id={`${id}-models`}>
          {suggestions.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </div>
      <div className="w-32">
        <label htmlFor={`${id}-input`} className="text-xs text-slate-600 dark:text-slate-400">
          Its input price
        </label>
        <input id={`${id}-input`} className={inputClass} inputMode="decimal" value={input} placeholder="0.10" onChange={(e) => setInput(e.target.value)} />
      </div>
      <div className="w-32">
        <label htmlFor={`${id}-output`} className="text-xs text-slate-600 dark:text-slate-400">
          Its output price
        </label>
        <input id={`${id}-output`} className={inputClass} inputMode="decimal" value={output} placeholder="0.40" onChange={(e) => setOutput(e.target.value)} />
      </div>
      <button
        type="button"
        className={secondaryButton}
        disabled={!ready}
        onClick={() => {
          onAdd(name, input.trim(), output.trim());
          setModel('');
          setInput('');
          setOutput('');
        }}
      >
        Add price
      </button>
      {(duplicate || bad) && (
        <p className="basis-full text-xs text-red-600 dark:text-red-400">{duplicate ? `${name} already has a price: edit its row` : DECIMAL_HINT}</p>
      )}
    </div>
  );
}
