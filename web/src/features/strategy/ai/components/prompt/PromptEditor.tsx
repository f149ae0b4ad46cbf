import { useRef, useState } from 'react';
import { btn, inputClass } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { ApiError } from '@/lib/api';
import { useIsOperator } from '../../../strategies/api';
import { type PromptHistory, useTemplateCheck } from '../../promptApi';
import { templateParam, templateText } from '../../promptModel';
import { useSaveVersion } from '../../../versions/api';
import { OperatorNote } from '../../../strategies/components/controls';
import type { useFlash } from '@/components/Flash';

const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';
const preClass = 'max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900';

/** Byte length as the server counts it (UTF-8). */
const bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * The AI strategy's prompt template: edited in place, checked and rendered
 * against live data as it is typed, saved as a new strategy version with a
 * note. It starts from the active version's template (or the shipped one's
 * text); `draft` is lifted so the version list can load an older one.
 */
export function PromptEditor({
  name,
  symbols,
  history,
  draft,
  setDraft,
  flash,
}: {
  name: string;
  symbols: string[];
  history: PromptHistory;
  draft: string;
  setDraft: (t: string) => void;
  flash: ReturnType<typeof useFlash>;
}) {
  const operator = useIsOperator();
  const area = useRef<HTMLTextAreaElement>(null);
  const [symbol, setSymbol] = useState(symbols[0] ?? 'BTC-USD');
  const [note, setNote] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSaveVersion(name);
  const check = useTemplateCheck(name, history.active_version, draft, symbol, operator);
  const active = history.versions.find((v) => v.active) ?? history.versions[0];
  const shipped = history.default.template;
  const saved = active ? (templateText(active, history.default) ?? shipped) : shipped;
  // What a save would send against what the active version has: its own text, or "" for the shipped default.
  const unchanged = templateParam(draft, shipped) === (active?.custom ? (active.template ?? '') : '') && (!!active?.custom || active?.template_version === history.default.template_version);
  const size = bytes(draft);
  const tooBig = size > history.max_template_bytes;
  const result = check.data;
  const err = tooBig ? { line: 0, column: 0, message: `The template is ${size} bytes; at most ${history.max_template_bytes} are allowed` } : result && !result.valid ? result.error : undefined;
  const checking = check.isFetching;

  const goToLine = (line: number) => {
    const el = area.current;
    if (!el || line < 1) return;
    const at = draft.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0);
    el.focus();
    el.setSelectionRange(at, at);
  };

  const submit = () => {
    setServerError(null);
    save.mutate(
      { params: { prompt_template: templateParam(draft, shipped), prompt_version: '' }, note: note.trim(), parent: history.active_version },
      {
        onSuccess: (r) => {
          setNote('');
          flash.ok(`Saved version ${r.version.version}: ${name} now asks with this prompt`);
        },
        onError: (e) => {
          const field = e instanceof ApiError ? (e.fields.prompt_template ?? e.fields.note) : undefined;
          setServerError(field ?? null);
          flash.fail('Failed to save the prompt', e);
        },
      },
    );
  };

  return (
    <Card title="Prompt Template">
      <div className="space-y-3">
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Go template over the data listed below; the <code className="font-mono">{'{{define "system"}}'}</code> block is the system message, the rest the prompt. Saving makes a new
          strategy version, so every decision records which prompt it used. An empty template, or the shipped text unchanged, is the shipped template {history.default.template_version}.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={btn.small} disabled={!operator || draft === shipped} onClick={() => setDraft(shipped)}>
            Start from the shipped template
          </button>
          <button type="button" className={btn.small} disabled={!operator || draft === saved} onClick={() => setDraft(saved)}>
            Revert to v{history.active_version}
          </button>
          <span className={`ml-auto text-xs tabular-nums ${tooBig ? 'text-red-600 dark:text-red-400' : 'text-slate-500 dark:text-slate-400'}`} data-testid="prompt-size">
            {size.toLocaleString('en-US')} / {history.max_template_bytes.toLocaleString('en-US')} bytes
          </span>
        </div>
        <textarea
          ref={area}
          aria-label="Prompt template"
          aria-invalid={!!err}
          aria-describedby="prompt-check-status"
          value={draft}
          readOnly={!operator}
          spellCheck={false}
          rows={16}
          onChange={(e) => setDraft(e.target.value)}
          className={`w-full rounded border bg-white px-3 py-2 font-mono text-xs leading-5 dark:bg-slate-950 ${err ? 'border-red-400 dark:border-red-700' : 'border-slate-300 dark:border-slate-700'}`}
        />
        <div id="prompt-check-status" className="min-h-5 text-sm">
          {!operator ? (
            <OperatorNote>Only operators can edit and check prompt templates.</OperatorNote>
          ) : err ? (
            <p role="alert" className="text-red-600 dark:text-red-400" data-testid="prompt-error">
              {err.line > 0 && (
                <button type="button" className="mr-1 font-semibold underline" onClick={() => goToLine(err.line)}>
                  Line {err.line}
                  {err.column > 0 ? `, column ${err.column}` : ''}
                </button>
              )}
              {err.line > 0 ? ': ' : ''}
              {err.message}
            </p>
          ) : check.error ? (
            <p role="alert" className="text-red-600 dark:text-red-400">
              Could not check the template: {(check.error as Error).message}
            </p>
          ) : result?.valid ? (
            <p className="text-emerald-700 dark:text-emerald-400" data-testid="prompt-valid">
              {checking ? 'Checking…' : `Valid: renders as ${result.template_version ?? ''}`}
            </p>
          ) : (
            <p className="text-slate-500 dark:text-slate-400">Checking…</p>
          )}
        </div>
        {operator && (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor="prompt-symbol" className="text-sm text-slate-600 dark:text-slate-300">
                Preview with live data for
              </label>
              <select id="prompt-symbol" value={symbol} onChange={(e) => setSymbol(e.target.value)} className={selectClass}>
                {(symbols.length ? symbols : ['BTC-USD']).map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </div>
            {result?.valid && (
              <div className={`grid gap-3 md:grid-cols-2 ${checking ? 'opacity-60' : ''}`}>
                <div className="min-w-0">
                  <p className="mb-1 text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">System message</p>
                  <pre data-testid="prompt-preview-system" className={preClass}>
                    {result.system}
                  </pre>
                </div>
                <div className="min-w-0">
                  <p className="mb-1 text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">Prompt · {result.symbol}</p>
                  <pre data-testid="prompt-preview" className={preClass}>
                    {result.prompt}
                  </pre>
                </div>
              </div>
            )}
            <div className="flex flex-wrap items-end gap-2">
              <div className="min-w-48 flex-1">
                <label htmlFor="prompt-note" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
                  Note
                </label>
                <input id="prompt-note" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} placeholder="What changed, and why" className={inputClass} />
              </div>
              <button type="button" className={btn.primary} disabled={save.isPending || unchanged || !!err || checking} onClick={submit}>
                {save.isPending ? 'Saving...' : 'Save as new version'}
              </button>
            </div>
            {unchanged && <p className="text-xs text-slate-500 dark:text-slate-400">The template is the one version {history.active_version} uses.</p>}
            {serverError && (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {serverError}
              </p>
            )}
          </>
        )}
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-600 dark:text-slate-300">Fields a template can use</summary>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[10rem_minmax(0,1fr)]">
            {history.fields.map((f) => (
              <div key={f.name} className="contents">
                <dt className="font-mono">{f.name}</dt>
                <dd className="break-words text-slate-600 dark:text-slate-400">{f.description}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
            Also the functions join, printf, len, index, eq, if, range over .Indicators or .LastCloses (not nested), with. A template must render for any symbol, with or without candles or a
            position.
          </p>
        </details>
      </div>
    </Card>
  );
}
