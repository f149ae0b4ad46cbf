import { inputClass } from '@/components/Modal';
import type { TradeInput } from '../api';

/** A trailing stop's trail (percent or price) and optional activation price. */
export function TrailingFields({ t, set, errors, priceStep, onCoinbase }: {
  t: TradeInput;
  set: <K extends keyof TradeInput>(k: K, v: TradeInput[K]) => void;
  errors: Record<string, string>;
  priceStep: string;
  onCoinbase: boolean;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-testid="trailing-fields">
      <div>
        <label htmlFor="tf-trail" className="block text-sm font-medium">
          Trail
        </label>
        <div className="flex gap-2">
          <input
            id="tf-trail"
            type="number"
            step="any"
            min="0"
            inputMode="decimal"
            className={inputClass}
            value={t.trail ?? ''}
            onChange={(e) => set('trail', e.target.value)}
            aria-invalid={!!errors.trail}
          />
          <select aria-label="Trail unit" className={`${inputClass} w-24`} value={t.trailUnit ?? 'percent'} onChange={(e) => set('trailUnit', e.target.value as 'percent' | 'amount')}>
            <option value="percent">%</option>
            <option value="amount">Price</option>
          </select>
        </div>
        {errors.trail ? (
          <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.trail}</p>
        ) : (
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {t.side === 'SELL' ? 'The stop follows each new high at this distance and sells when the price falls back to it.' : 'The stop follows each new low at this distance and buys when the price rises back to it.'}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="tf-activation" className="block text-sm font-medium">
          Activation Price (optional)
        </label>
        <input
          id="tf-activation"
          type="number"
          step={priceStep}
          min="0"
          inputMode="decimal"
          className={inputClass}
          value={t.activation ?? ''}
          onChange={(e) => set('activation', e.target.value)}
          aria-invalid={!!errors.activation}
        />
        {errors.activation && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.activation}</p>}
      </div>
      {onCoinbase && (
        <p className="text-xs text-slate-500 sm:col-span-2 dark:text-slate-400" data-testid="coinbase-trailing-note">
          On Coinbase, Kestrel keeps this stop: a stop-limit placed at the trail from the price now and raised in place at most
          every 5 seconds. With an activation price it waits there until the price reaches it.
        </p>
      )}
    </div>
  );
}
