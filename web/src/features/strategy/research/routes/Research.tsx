import { useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { btn } from '@/components/Modal';
import { Card, ScreenHeader } from '@/components/Screen';
import { ApiError, errorMessage } from '@/lib/api';
import { periodOutside, useDataPeriod } from '@/lib/coverage';
import { sweepDone, useCancelSweep, useSaveVersion, useSubmitSweep, useSweep, useSweeps } from '../api';
import { defaultResearchForm, toSweepAsk, validateResearch, type ResearchErrors, type ResearchForm } from '../model';
import type { Sweep, SweepTrial } from '../types';
import { FoldChart } from '../components/FoldChart';
import { Heatmap } from '../components/Heatmap';
import { Overfitting } from '../components/Overfitting';
import { SweepForm } from '../components/SweepForm';
import { TrialsTable } from '../components/TrialsTable';

/** A sweep under way: the share of its runs done, and Cancel. */
function SweepProgress({ sweep, onCancel, cancelling }: { sweep: Sweep; onCancel: () => void; cancelling: boolean }) {
  const pct = Math.floor(sweep.progress * 100);
  const runs = sweep.walk_forward ? `${sweep.runs ?? 0} of ${sweep.runs_planned ?? 0} backtests` : `${sweep.trials.length} of ${sweep.trial_count} trials`;
  return (
    <Card title="Sweep in progress">
      <div className="space-y-3 text-sm" data-testid="sweep-progress">
        <p>
          <strong>{sweep.status === 'queued' ? 'Queued' : 'Running'}</strong> — {runs} ({pct}%)
        </p>
        <div role="progressbar" aria-label="Sweep progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-3 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800">
          <div className="h-full bg-blue-600 transition-[width]" style={{ width: `${pct}%` }} />
        </div>
        <button type="button" className={btn.danger} onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
    </Card>
  );
}

/** The saved version's number in the server's answer ({version: {version: n}}), if it gives one. */
function savedNumber(d: unknown): number | null {
  const v = (d as { version?: { version?: unknown } } | null)?.version?.version;
  return typeof v === 'number' ? v : null;
}

/** The trial to save as a new version, with its note; the server's answer (or refusal) is shown as it is. */
function SaveVersion({ sweep, trial, onClose }: { sweep: Sweep; trial: SweepTrial; onClose: () => void }) {
  const [note, setNote] = useState(`Sweep ${sweep.id.slice(0, 8)}, trial ${trial.index}: ${JSON.stringify(trial.values)}`);
  const save = useSaveVersion();
  const req = sweep.request as { strategy_name: string; strategy_version?: unknown };
  const name = req.strategy_name;
  // The trial's overrides apply to the configuration the sweep ran with: its version, when the server recorded one.
  const parent = typeof req.strategy_version === 'number' ? req.strategy_version : null;
  return (
    <Card title={`Save trial ${trial.index} as a new version of ${name}`}>
      <div className="space-y-2 text-sm" data-testid="save-version">
        <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">{JSON.stringify(trial.params)}</pre>
        <label className="block">
          Note
          <input className="mt-1 w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800" value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        {save.isError && <ErrorBox message={`Not saved: ${errorMessage(save.error, 'the server refused the version')}`} />}
        {save.isSuccess && <p className="text-green-700 dark:text-green-400">Saved as version {savedNumber(save.data) ?? '(number not given by the server)'} of {name}.</p>}
        <div className="flex gap-2">
          <button type="button" className={btn.primary} disabled={save.isPending || save.isSuccess} onClick={() => save.mutate({ name, body: { params: trial.params as Record<string, unknown>, note, parent } })}>
            {save.isPending ? 'Saving…' : 'Save version'}
          </button>
          <button type="button" className={btn.secondary} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Card>
  );
}

function Results({ sweep }: { sweep: Sweep }) {
  const [saving, setSaving] = useState<SweepTrial | null>(null);
  const best = sweep.best?.index ?? null;
  const halted = sweep.trials.filter((t) => t.halted).length;
  return (
    <div className="space-y-4" data-testid="sweep-results">
      {sweep.status === 'failed' && <ErrorBox message={`Sweep failed: ${sweep.error ?? ''}`} />}
      {sweep.status === 'cancelled' && <ErrorBox message="Sweep cancelled: the trials finished before the cancel are shown" />}
      {sweep.status === 'completed' && (
        <p className="break-words text-sm" data-testid="sweep-done">
          Completed: {sweep.trials.length} trials
          {sweep.best ? `, best trial ${sweep.best.index} (${JSON.stringify(sweep.best.values)})` : ', none eligible'}.
          {halted > 0 && ' '}
          {halted > 0 && (
            <span className="text-red-700 dark:text-red-400" data-testid="sweep-halted">
              {sweep.best?.halted
                ? `Every eligible trial was halted by a risk limit (${sweep.best.halted.reason}): the best is the best of them, and stopped trading on ${sweep.best.halted.at.slice(0, 10)}.`
                : `${halted} of them halted by a risk limit: flagged below, and never ranked best.`}
            </span>
          )}
        </p>
      )}
      {saving && <SaveVersion key={saving.index} sweep={sweep} trial={saving} onClose={() => setSaving(null)} />}
      <Heatmap key={sweep.id} trials={sweep.trials} names={sweep.parameters} objective={sweep.objective} />
      <FoldChart sweep={sweep} />
      {sweepDone(sweep.status) && <Overfitting sweep={sweep} />}
      <TrialsTable trials={sweep.trials} names={sweep.parameters} objective={sweep.objective} best={best} onSave={setSaving} />
    </div>
  );
}

/** Strategy Research: parameter sweeps with walk-forward validation. */
export default function Research() {
  const [form, setForm] = useState<ResearchForm>(() => defaultResearchForm());
  const [errors, setErrors] = useState<ResearchErrors>({});
  const [selected, setSelected] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const period = useDataPeriod(form, setForm);
  const submit = useSubmitSweep();
  const cancel = useCancelSweep();
  const sweep = useSweep(selected);
  const list = useSweeps();
  const run = () => {
    const errs = validateResearch(form);
    const out = !errs.start_date && period.span ? periodOutside(period.span, form.start_date, form.end_date) : null;
    if (out) errs[out.field] = out.message;
    setErrors(errs);
    setFailure(null);
    if (Object.keys(errs).length > 0) return;
    submit.mutate(toSweepAsk(form), {
      onSuccess: (r) => setSelected(r.id),
      onError: (err) => {
        if (err instanceof ApiError) setErrors(err.fields);
        setFailure(errorMessage(err, 'Failed to start the sweep'));
      },
    });
  };
  const s = sweep.data;
  return (
    <div>
      <ScreenHeader title="Research" subtitle="Parameter sweeps of a strategy, each trial its own backtest, with walk-forward validation" />
      <div className="grid gap-4 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          <SweepForm form={form} errors={errors} onChange={(p) => setForm((f) => ({ ...f, ...p }))} onSubmit={run} running={submit.isPending} period={period} />
          {failure && <ErrorBox message={failure} />}
          <Card title="Recent sweeps">
            <ul className="space-y-1 text-sm" data-testid="sweep-list">
              {(list.data ?? []).slice(0, 10).map((x) => (
                <li key={x.id}>
                  <button type="button" className={`w-full truncate text-left hover:underline ${x.id === selected ? 'font-semibold' : ''}`} onClick={() => setSelected(x.id)}>
                    {x.strategy_name} · {x.symbol} · {x.objective} · {x.status}
                  </button>
                </li>
              ))}
              {list.data?.length === 0 && <li className="text-slate-500">No sweeps yet</li>}
            </ul>
          </Card>
        </div>
        <div className="min-w-0 space-y-4">
          {!s && (
            <Card>
              <p className="py-12 text-center text-sm text-slate-500 dark:text-slate-400">
                {sweep.isError ? errorMessage(sweep.error, 'Could not read the sweep') : 'Choose a strategy and the parameters to vary, then Run Sweep.'}
              </p>
            </Card>
          )}
          {s && !sweepDone(s.status) && <SweepProgress sweep={s} onCancel={() => cancel.mutate(s.id)} cancelling={cancel.isPending} />}
          {cancel.isError && <ErrorBox message={errorMessage(cancel.error, 'Could not cancel')} />}
          {s && <Results sweep={s} />}
        </div>
      </div>
    </div>
  );
}
