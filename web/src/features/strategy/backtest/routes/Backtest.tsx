import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorBox } from '@/components/Field';
import { Card, ScreenHeader } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { useBacktest, useCancelBacktest, useJobStream, useRunBacktest } from '../api';
import { defaultForm, formErrors, formFromRequest, isEstimate, isFinished, toAsk, validateBacktest, type BacktestErrors, type BacktestForm as Form } from '../model';
import type { BacktestAsk, BacktestJob, BacktestReport, BacktestRun, LiveEstimate } from '../types';
import { useDataPeriod } from '@/lib/coverage';
import { BacktestForm } from '../components/BacktestForm';
import { CompareRuns } from '../components/CompareRuns';
import { EquityChart } from '../components/EquityChart';
import { FillsChart } from '../components/FillsChart';
import { JobEnded, JobProgress } from '../components/JobProgress';
import { AIRunNote, AssumptionsBanner, HaltedCallout, NotExecuted, ReportSummary, ReportTitle } from '../components/ReportSummary';
import { ConfirmLive } from '../components/ConfirmLive';
import { RunHistory } from '../components/RunHistory';
import { TradeTable } from '../components/TradeTable';
import { MonteCarloCard } from '../components/MonteCarlo';
import { FlashBanner, useFlash } from '@/components/Flash';

function EmptyState() {
  return (
    <Card>
      <div className="py-16 text-center">
        <p className="text-lg font-semibold">No Backtest Results</p>
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Configure a backtest and press Run Backtest, or open a past run from the history.</p>
      </div>
    </Card>
  );
}

function Report({ r }: { r: BacktestReport }) {
  if (r.status !== 'completed') return <ErrorBox message={`Backtest failed to complete (status ${r.status})`} />;
  return (
    <div className="space-y-4" data-testid="bt-report">
      <ReportTitle r={r} />
      {r.halted && <HaltedCallout h={r.halted} />}
      <AssumptionsBanner a={r.assumptions} evaluated={r.candles} strategyVersion={r.strategy_version} />
      {r.ai && <AIRunNote ai={r.ai} />}
      <ReportSummary r={r} />
      <EquityChart points={r.equity_curve ?? []} initial={r.initial_equity} maxDrawdown={r.max_drawdown} total={r.equity_curve_points} halted={r.halted} />
      <FillsChart report={r} />
      {r.monte_carlo && <MonteCarloCard mc={r.monte_carlo} initial={r.initial_equity} />}
      <TradeTable trades={r.trades ?? []} symbol={r.symbol} />
      <NotExecuted r={r} />
    </div>
  );
}

/** A backtest: its progress while under way, why it ended without a report, or the report. */
function JobView({ job, onCancel, cancelling }: { job: BacktestJob; onCancel: () => void; cancelling: boolean }) {
  if (!isFinished(job.status)) return <JobProgress job={job} onCancel={onCancel} cancelling={cancelling} />;
  if (job.status !== 'completed' || !job.report) return <JobEnded job={job} />;
  return <Report r={job.report} />;
}

/** Strategy Backtesting: the form and the run history on the left, the report (or a comparison) on the right. */
export default function Backtest() {
  const [form, setForm] = useState<Form>(() => defaultForm());
  const period = useDataPeriod(form, setForm);
  const [errors, setErrors] = useState<BacktestErrors>({});
  // ?run=<id> opens a run started elsewhere (the AI screen's "Backtest this prompt").
  const [params] = useSearchParams();
  const [selected, setSelected] = useState<string | null>(() => params.get('run'));
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<[string, string] | null>(null);
  /** A live-model run's estimate, waiting for the trader to confirm it. */
  const [estimate, setEstimate] = useState<{ ask: BacktestAsk; e: LiveEstimate } | null>(null);
  const flash = useFlash();
  const run = useRunBacktest();
  const cancel = useCancelBacktest();
  const report = useBacktest(selected);
  useJobStream();
  /** The run this screen queued, to say how it ended once it does. */
  const queued = useRef<string | null>(null);
  const job = report.data;
  const { ok: flashOk, fail: flashFail } = flash;
  useEffect(() => {
    if (!job || job.id !== queued.current || !isFinished(job.status)) return;
    queued.current = null;
    if (job.status === 'completed') flashOk('Backtest completed successfully');
    else if (job.status === 'cancelled') flashFail('Backtest cancelled');
    else flashFail('Backtest failed to complete');
  }, [job, flashOk, flashFail]);

  const change = (k: keyof Form, v: string) => {
    setEstimate(null);
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined, ...(k === 'start_date' || k === 'end_date' ? { start_date: undefined, end_date: undefined } : {}) }));
  };

  const submit = () => {
    const errs = validateBacktest(form, period.span);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    flash.clear();
    send(toAsk(form));
  };

  const send = (ask: BacktestAsk) => {
    setEstimate(null);
    run.mutate(ask, {
      onSuccess: (rep) => {
        if (isEstimate(rep)) {
          setEstimate({ ask, e: rep });
          return;
        }
        queued.current = rep.id;
        setSelected(rep.id);
        setComparing(null);
      },
      onError: (err) => {
        if (err instanceof ApiError) setErrors(formErrors(err.fields));
        flash.fail('Failed to run backtest', err);
      },
    });
  };

  const pick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  /** Shows a past run and puts what it asked into the form, ready to run again with changes. */
  const open = (run: BacktestRun) => {
    setEstimate(null);
    setSelected(run.id);
    setComparing(null);
    setForm(formFromRequest(run.request));
    setErrors({});
  };

  return (
    <>
      <ScreenHeader title="Strategy Backtesting" subtitle="Run a strategy over past candles through the same engine, fees and risk checks as live trading." />
      <FlashBanner flash={flash.flash} />
      <div className="grid gap-6 lg:grid-cols-[minmax(280px,1fr)_3fr]">
        <div className="space-y-6">
          <BacktestForm form={form} errors={errors} onChange={change} onSubmit={submit} running={run.isPending} period={period} />
          <RunHistory selected={selected} onOpen={open} picked={picked} onPick={pick} onCompare={() => {
              setEstimate(null);
              setComparing([picked[0]!, picked[1]!]);
            }} />
        </div>
        <div className="min-w-0 space-y-4">
          {comparing && <CompareRuns ids={comparing} onClose={() => setComparing(null)} />}
          {estimate && !run.isPending && <ConfirmLive e={estimate.e} onConfirm={() => send({ ...estimate.ask, confirm_live: true })} onCancel={() => setEstimate(null)} />}
          {run.isPending && <Spinner label="Queueing backtest..." />}
          {!comparing && !run.isPending && !selected && !estimate && <EmptyState />}
          {!comparing && selected && report.isPending && <Spinner />}
          {!comparing && selected && report.isError && <ErrorBox message={errorMessage(report.error, 'Failed to load the backtest')} />}
          {!comparing && !estimate && job && <JobView job={job} onCancel={() => cancel.mutate(job.id, { onError: (err) => flash.fail('Failed to cancel the backtest', err) })} cancelling={cancel.isPending} />}
        </div>
      </div>
    </>
  );
}
