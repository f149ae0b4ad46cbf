import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { formatCount } from '@/lib/format';
import type { LiveEstimate } from '../types';

/** A live-model run's estimate: what it will ask, and what to beware of, before any call is made. */
export function ConfirmLive({ e, onConfirm, onCancel }: { e: LiveEstimate; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Card title="Confirm a live model run">
      <div className="space-y-3 text-sm" data-testid="bt-live-estimate">
        <p>
          This backtest of <strong>{e.strategy_name}</strong> on {e.symbol} asks <strong>{e.model}</strong> ({e.provider}){' '}
          <strong data-testid="bt-model-calls">{formatCount(e.model_calls)}</strong> times, once per candle (up to {formatCount(e.max_model_calls)} if answers need the repair
          retry). A paid model charges for every call; the run stops at the cap of {formatCount(e.model_call_cap)} calls. It runs as a job: follow its progress here, cancel it any time,
          and the answers it has paid for are kept for a recorded replay.
        </p>
        <p className="text-slate-600 dark:text-slate-400">Training cutoff: {e.provider === 'builtin' ? 'none (the built-in analyst is rules, not a trained model)' : (e.training_cutoff ?? 'unknown')}</p>
        {e.warnings.map((w) => (
          <p key={w} role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
            {w}
          </p>
        ))}
        <div className="flex gap-3">
          <button type="button" className={btn.primary} onClick={onConfirm}>
            Run with {formatCount(e.model_calls)} model calls
          </button>
          <button type="button" className={btn.secondary} onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </Card>
  );
}
