import { useState } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { formatDateTime } from '@/lib/format';
import type { PromptHistory, PromptVersion } from '../../promptApi';
import { collapse, diffStats, lineDiff, templateLabel, templateText } from '../../promptModel';
import { Badge } from '../../../strategies/components/controls';

const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/** The prompt history (strategy versions, newest first) with Load into the editor on each. */
export function PromptVersionList({ history, onLoad, canEdit }: { history: PromptHistory; onLoad: (text: string, version: number) => void; canEdit: boolean }) {
  const [onlyChanges, setOnlyChanges] = useState(true);
  const shown = history.versions.filter((v) => !onlyChanges || v.changed || v.active || !v.parent);
  return (
    <Card title={`Prompt versions · ${history.count} strategy versions`}>
      <label className="mb-2 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={onlyChanges} onChange={(e) => setOnlyChanges(e.target.checked)} />
        Only versions that changed the prompt
      </label>
      <ul className="text-sm" aria-label="Prompt versions">
        {shown.map((v) => {
          const text = templateText(v, history.default);
          return (
            <li key={v.version} data-testid="prompt-version" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 py-2 dark:border-slate-800">
              <span className="font-semibold tabular-nums">v{v.version}</span>
              {v.active && <Badge className="bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">Active</Badge>}
              {v.changed && <Badge className="bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200">Prompt changed</Badge>}
              <span className="font-mono text-xs text-slate-600 dark:text-slate-300">{templateLabel(v)}</span>
              <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">
                {formatDateTime(v.created_at)} · {v.created_by || 'Kestrel'}
              </span>
              <span className="min-w-0 basis-full break-words text-slate-700 sm:basis-auto sm:flex-1 dark:text-slate-300">{v.note || '—'}</span>
              {canEdit && text !== null && (
                <button type="button" className={btn.small} onClick={() => onLoad(text, v.version)} aria-label={`Load version ${v.version} into the editor`}>
                  Load into editor
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** The version to compare the active one with by default: the newest older one whose prompt differs, else the one before. */
export function defaultFrom(versions: PromptVersion[], active: number): number {
  const cur = versions.find((v) => v.version === active);
  const older = versions.filter((v) => v.version < active);
  return older.find((v) => v.template_version !== cur?.template_version)?.version ?? older[0]?.version ?? active;
}

/** A line diff of any two versions' templates. */
export function PromptDiff({ history }: { history: PromptHistory }) {
  const numbers = history.versions.map((v) => v.version);
  const [from, setFrom] = useState(() => defaultFrom(history.versions, history.active_version));
  const [to, setTo] = useState(history.active_version);
  const a = history.versions.find((v) => v.version === from);
  const b = history.versions.find((v) => v.version === to);
  const ta = a ? templateText(a, history.default) : null;
  const tb = b ? templateText(b, history.default) : null;
  const pick = (label: string, value: number, set: (n: number) => void) => (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-500 dark:text-slate-400">{label}</span>
      <select aria-label={`Compare prompts ${label.toLowerCase()}`} value={value} onChange={(e) => set(Number(e.target.value))} className={selectClass}>
        {numbers.map((n) => (
          <option key={n} value={n}>
            v{n}
            {n === history.active_version ? ' (active)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <Card title="Compare prompts">
      <div className="mb-3 flex flex-wrap items-center gap-4">
        {pick('From', from, setFrom)}
        {pick('To', to, setTo)}
      </div>
      {ta === null || tb === null ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">A version pinned to an older shipped template ({(ta === null ? a : b)?.template_version}) has no text to compare here.</p>
      ) : (
        <DiffView a={ta} b={tb} from={from} to={to} />
      )}
    </Card>
  );
}

const ROW_CLASS = { same: '', add: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-200', del: 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-200' };
const SIGN = { same: ' ', add: '+', del: '-' };

export function DiffView({ a, b, from, to }: { a: string; b: string; from: number; to: number }) {
  const diff = lineDiff(a, b);
  const { added, deleted } = diffStats(diff);
  if (added + deleted === 0) {
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="prompt-diff-summary">
        v{from} and v{to} use the same template.
      </p>
    );
  }
  return (
    <>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400" data-testid="prompt-diff-summary">
        {added} {added === 1 ? 'line' : 'lines'} added, {deleted} deleted from v{from} to v{to}.
      </p>
      <div className="overflow-x-auto rounded border border-slate-200 dark:border-slate-800">
        <table className="w-full font-mono text-xs" aria-label={`Changes from v${from} to v${to}`}>
          <tbody>
            {collapse(diff).map((d, k) =>
              d.kind === 'gap' ? (
                <tr key={k} className="bg-slate-50 text-slate-500 dark:bg-slate-900 dark:text-slate-400">
                  <td colSpan={4} className="px-2 py-0.5">
                    … {d.count} unchanged {d.count === 1 ? 'line' : 'lines'}
                  </td>
                </tr>
              ) : (
                <tr key={k} data-testid={`diff-${d.kind}`} className={ROW_CLASS[d.kind]}>
                  <td className="w-8 select-none px-1 text-right text-slate-400">{d.from ?? ''}</td>
                  <td className="w-8 select-none px-1 text-right text-slate-400">{d.to ?? ''}</td>
                  <td className="w-4 select-none text-center">{SIGN[d.kind]}</td>
                  <td className="whitespace-pre-wrap break-all pr-2">{d.text}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
