import { useState } from 'react';
import { btn, Modal } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatDateTime } from '@/lib/format';
import { useIsOperator, useStrategies } from '../../strategies/api';
import type { StrategyVersion } from '../../strategies/types';
import { useActivateVersion, useVersions } from '../api';
import { refusedGates, usePromote, type PromotionGate } from '../promotionApi';
import { PromotionPanel } from './PromotionPanel';
import { diffParams } from '../model';
import { Badge, OperatorNote } from '../../strategies/components/controls';
import type { useFlash } from '@/components/Flash';

/** The history's columns from md up (below, each version stacks). */
const ROW = 'md:grid-cols-[8rem_11rem_minmax(0,1fr)_minmax(0,1.5fr)_13rem] md:items-center md:gap-x-3';

const selectClass = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/**
 * Versions of one instance: the history (every saved configuration, never
 * overwritten), a param-by-param diff of any two, and Activate (roll back or
 * forward) behind a confirmation. Operators only activate.
 */
export function VersionsView({ flash }: { flash: ReturnType<typeof useFlash> }) {
  const list = useStrategies();
  const names = (list.data ?? []).map((s) => s.name);
  const [picked, setPicked] = useState('');
  const name = picked || names[0] || '';
  return (
    <div className="space-y-4">
      <label className="flex items-center gap-2 text-sm">
        <span className="text-slate-500 dark:text-slate-400">Strategy</span>
        <select aria-label="Strategy" value={name} onChange={(e) => setPicked(e.target.value)} className={selectClass}>
          {names.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      {list.isLoading && <Spinner />}
      {name && <Versions key={name} name={name} flash={flash} />}
    </div>
  );
}

function Versions({ name, flash }: { name: string; flash: ReturnType<typeof useFlash> }) {
  const q = useVersions(name);
  const operator = useIsOperator();
  const activate = useActivateVersion(name);
  const [confirm, setConfirm] = useState<StrategyVersion | null>(null);
  const promote = usePromote(name);
  const [refused, setRefused] = useState<{ version: number; gates: PromotionGate[] } | null>(null);
  if (q.isLoading) return <Spinner />;
  if (q.error || !q.data) return <p role="alert" className="text-sm text-red-600">Failed to load the versions: {String((q.error as Error | null)?.message ?? '')}</p>;
  const { versions, active_version: active } = q.data;
  const run = (v: StrategyVersion) =>
    activate.mutate(v.version, {
      onSuccess: (r) => {
        setConfirm(null);
        flash.ok(`${name} now runs version ${r.active_version} (was version ${r.previous_version})`);
      },
      onError: (err) => {
        setConfirm(null);
        flash.fail(`Failed to activate version ${v.version}`, err);
      },
    });
  const toPaper = (v: StrategyVersion) =>
    promote.mutate(v.version, {
      onSuccess: (p) => {
        setRefused(null);
        flash.ok(`Version ${p.version} of ${name} now trades on paper in its own account`);
      },
      onError: (err) => {
        const gates = refusedGates(err);
        setRefused(gates.length > 0 ? { version: v.version, gates } : null);
        if (gates.length === 0) flash.fail(`Failed to promote version ${v.version}`, err);
      },
    });
  return (
    <>
      <Card title={`Version history · ${versions.length} saved`}>
        {!operator && <OperatorNote>Only operators can activate a version or promote one to paper.</OperatorNote>}
        {/* A grid rather than a table, so a phone stacks each version's fields instead of squeezing five columns. */}
        <div className="text-sm">
          <div className={`${ROW} hidden border-b border-slate-200 pb-2 text-xs uppercase text-slate-500 md:grid dark:border-slate-800 dark:text-slate-400`}>
            <span>Version</span>
            <span>Saved</span>
            <span>By</span>
            <span>Note</span>
            <span className="text-right">Status</span>
          </div>
          <ul>
            {versions.map((v) => (
              <li key={v.version} data-testid="version-row" className={`${ROW} grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 border-b border-slate-100 py-2 dark:border-slate-800`}>
                <span className="font-semibold tabular-nums">
                  v{v.version}
                  {v.parent ? <span className="ml-1 text-xs font-normal text-slate-500 dark:text-slate-400">from v{v.parent}</span> : null}
                </span>
                <span className="col-span-2 tabular-nums text-slate-600 md:col-span-1 dark:text-slate-300">{formatDateTime(v.created_at)}</span>
                <span className="col-span-2 break-words md:col-span-1">{v.created_by || <span className="text-slate-500 dark:text-slate-400">Kestrel</span>}</span>
                <span className="col-span-2 break-words md:col-span-1">{v.note || <span className="text-slate-500 dark:text-slate-400">—</span>}</span>
                <span className="col-start-2 row-start-1 flex items-center justify-end gap-2 md:col-start-auto md:row-start-auto">
                  {operator && (
                    <button type="button" className={btn.small} disabled={promote.isPending} onClick={() => toPaper(v)} aria-label={`Promote version ${v.version} to paper`}>
                      Promote to paper
                    </button>
                  )}
                  {v.active ? (
                    <Badge className="bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">Active</Badge>
                  ) : (
                    <button type="button" className={btn.small} disabled={!operator || activate.isPending} onClick={() => setConfirm(v)} aria-label={`Activate version ${v.version}`}>
                      Activate
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </Card>
      <PromotionPanel name={name} refused={refused} onDismiss={() => setRefused(null)} flash={flash} />
      {versions.length > 1 && <VersionDiff key={active} versions={versions} active={active} />}
      {confirm && (
        <Modal title={`Activate version ${confirm.version}?`} onClose={() => setConfirm(null)}>
          <p className="text-sm">
            {name} will run version {confirm.version} instead of version {active} from its next evaluation. Nothing is deleted: version {active} stays in the history and can be
            activated again.
          </p>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className={btn.secondary} onClick={() => setConfirm(null)}>
              Cancel
            </button>
            <button type="button" className={btn.primary} disabled={activate.isPending} onClick={() => run(confirm)}>
              Activate version {confirm.version}
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}

/** Any two versions, param by param; by default the active one against the one before it. */
function VersionDiff({ versions, active }: { versions: StrategyVersion[]; active: number }) {
  const numbers = versions.map((v) => v.version);
  const before = numbers.find((n) => n < active) ?? numbers.find((n) => n !== active) ?? active;
  const [from, setFrom] = useState(before);
  const [to, setTo] = useState(active);
  const [all, setAll] = useState(false);
  const a = versions.find((v) => v.version === from);
  const b = versions.find((v) => v.version === to);
  const rows = diffParams(a?.params, b?.params);
  const shown = all ? rows : rows.filter((r) => r.changed);
  const pick = (label: string, value: number, set: (n: number) => void) => (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-500 dark:text-slate-400">{label}</span>
      <select aria-label={`Compare ${label.toLowerCase()}`} value={value} onChange={(e) => set(Number(e.target.value))} className={selectClass}>
        {numbers.map((n) => (
          <option key={n} value={n}>
            v{n}
            {n === active ? ' (active)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
  const changed = rows.filter((r) => r.changed).length;
  return (
    <Card title="Compare versions">
      <div className="mb-3 flex flex-wrap items-center gap-4">
        {pick('From', from, setFrom)}
        {pick('To', to, setTo)}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          Show unchanged parameters
        </label>
      </div>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400" data-testid="diff-summary">
        {from === to ? 'The same version on both sides.' : `${changed} of ${rows.length} parameters differ between v${from} and v${to}.`}
      </p>
      {shown.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
                <th className="py-2 pr-3">Parameter</th>
                <th className="py-2 pr-3">v{from}</th>
                <th className="py-2">v{to}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.key} data-testid="diff-row" className={`border-b border-slate-100 dark:border-slate-800 ${r.changed ? 'bg-amber-50 dark:bg-amber-950/40' : ''}`}>
                  <td className="py-1.5 pr-3 font-mono text-xs break-all">{r.key}</td>
                  <td className={`py-1.5 pr-3 tabular-nums break-all ${r.changed ? 'text-red-700 dark:text-red-300' : ''}`}>{r.from}</td>
                  <td className={`py-1.5 tabular-nums break-all ${r.changed ? 'text-emerald-700 dark:text-emerald-300' : ''}`}>{r.to}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
