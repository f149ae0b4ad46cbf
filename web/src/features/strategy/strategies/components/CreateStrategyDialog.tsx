import { useState } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn, Modal } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { useCreateStrategy, useStrategyTypes } from '../api';
import { TYPE_LABEL } from '../model';
import type { StrategyType } from '../types';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Create Strategy: a named instance of a type, starting from that type's defaults, disabled. */
export function CreateStrategyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (name: string) => void }) {
  const types = useStrategyTypes();
  const create = useCreateStrategy();
  const [name, setName] = useState('');
  const [type, setType] = useState<StrategyType>('technical');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const options = types.data ?? (['technical', 'ai_driven', 'hybrid'] as const).map((t) => ({ type: t, description: '' }));
  const submit = () => {
    const n = name.trim();
    if (!n) return setErrors({ name: 'Name is required' });
    if (!NAME.test(n)) return setErrors({ name: 'Use letters, digits, _ and - (at most 64)' });
    // POST /strategy/ai-analyze/{symbol} shares its shape with /strategy/{name}/enable.
    if (n === 'ai-analyze') return setErrors({ name: 'This name is reserved' });
    setErrors({});
    create.mutate(
      { name: n, type },
      {
        onSuccess: (s) => onCreated(s.name),
        onError: (err) => {
          if (err instanceof ApiError) setErrors(err.fields);
          setError(errorMessage(err, 'Failed to create strategy'));
        },
      },
    );
  };
  return (
    <Modal title="Create Strategy" onClose={onClose}>
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <ErrorBox message={error} />
        <Field id="new-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} placeholder="e.g. fast_rsi" autoFocus />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Type</legend>
          <div className="mt-2 space-y-2">
            {options.map((t) => (
              <label key={t.type} className="flex cursor-pointer gap-2 rounded border border-slate-200 p-2 text-sm dark:border-slate-800">
                <input type="radio" name="type" value={t.type} checked={type === t.type} onChange={() => setType(t.type)} />
                <span>
                  <span className="font-medium">{TYPE_LABEL[t.type] ?? t.type}</span>
                  {t.description && <span className="block text-xs text-slate-500 dark:text-slate-400">{t.description}</span>}
                </span>
              </label>
            ))}
          </div>
          {errors.type && <p className="mt-1 text-xs text-red-600">{errors.type}</p>}
        </fieldset>
        <p className="text-xs text-slate-500 dark:text-slate-400">It starts disabled with the type&apos;s default settings; configure it, then enable it.</p>
        <div className="flex justify-end gap-2">
          <button type="button" className={btn.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={btn.primary} disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
