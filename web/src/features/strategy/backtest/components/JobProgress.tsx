import { ErrorBox } from '@/components/Field';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import type { BacktestJob } from '../types';

const STATUS_LABEL: Record<string, string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };

/** A backtest under way: its status, a progress bar and Cancel. */
export function JobProgress({ job, onCancel, cancelling }: { job: BacktestJob; onCancel: () => void; cancelling: boolean }) {
  const pct = Math.floor(job.progress * 100);
  return (
    <Card title="Backtest in progress">
      <div className="space-y-3 text-sm" data-testid="bt-job">
        <p>
          <strong data-testid="bt-job-status">{STATUS_LABEL[job.status] ?? job.status}</strong>
          {job.status === 'queued' ? ' — waiting for a free worker' : ` — ${pct}% of the candles done`}
        </p>
        <div
          role="progressbar"
          aria-label="Backtest progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          className="h-3 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800"
        >
          <div className="h-full bg-blue-600 transition-[width]" style={{ width: `${pct}%` }} />
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">It runs on the server: you can leave this screen and open it again from the run history.</p>
        <button type="button" className={btn.danger} onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling...' : 'Cancel'}
        </button>
      </div>
    </Card>
  );
}

/** A backtest that ended without a report: why. */
export function JobEnded({ job }: { job: BacktestJob }) {
  const what = job.status === 'cancelled' ? 'Backtest cancelled' : 'Backtest failed';
  return <ErrorBox message={`${what}${job.error ? `: ${job.error}` : ''}`} />;
}
