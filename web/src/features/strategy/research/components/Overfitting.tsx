import { Card } from '@/components/Screen';
import { formatCount, formatNumber, formatShare } from '@/lib/format';
import type { Sweep } from '../types';

/** How a PBO reads, in plain words. */
export function pboVerdict(p: number): string {
  if (p < 0.2) return 'The trial best in sample usually stays among the better half out of sample: little sign of overfitting.';
  if (p < 0.5) return 'The trial best in sample often falls into the worse half out of sample: treat its figures with care.';
  return 'The trial best in sample falls into the worse half out of sample at least as often as not: the search is likely picking luck.';
}

/**
 * The probability of backtest overfitting of a sweep (combinatorially
 * symmetric cross-validation): the figure, what it means, and why there is
 * none when the server gives none.
 */
export function Overfitting({ sweep }: { sweep: Sweep }) {
  const p = sweep.pbo;
  return (
    <Card title="Probability of Backtest Overfitting">
      {!p ? (
        <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="sweep-pbo-none">
          Not available: {sweep.pbo_note ?? 'the server gave no figure'}.
        </p>
      ) : (
        <div className="space-y-2 text-sm" data-testid="sweep-pbo">
          <p>
            <span className="text-2xl font-semibold tabular-nums" data-testid="sweep-pbo-value">
              {formatShare(p.probability * 100, 1)}
            </span>{' '}
            of {formatCount(p.combinations)} splits
          </p>
          <p>{pboVerdict(p.probability)}</p>
          <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="sweep-pbo-how">
            The period&apos;s {formatCount(p.periods)} returns of each of the {formatCount(p.trials)} trials are cut into {p.blocks} blocks; every way of taking half the
            blocks as in sample ({formatCount(p.combinations)} splits) picks the trial with the best in-sample Sharpe ratio and ranks it among all trials on the other
            half. The figure is the share of splits where it ranked in the lower half (median logit {formatNumber(p.logits.median, 2)}; below 0 is the lower half). It
            ranks by Sharpe ratio whatever the sweep&apos;s objective, assumes the blocks are alike (returns not strongly tied across blocks) and counts every trial,
            similar neighbours included.
          </p>
        </div>
      )}
    </Card>
  );
}
