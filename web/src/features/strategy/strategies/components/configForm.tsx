import { useState, type ReactNode } from 'react';
import { ApiError } from '@/lib/api';
import { btn } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { useIsOperator, useSaveConfig, useSetEnabled, useSignalStream, useStrategies, useStrategyConfig } from '../api';
import { fromDraft, memoryParams, parseSymbols, toDraft, toMemoryDraft, validate, validateMemory, type FieldErrors, type MemoryDraft, type NumberSpec } from '../model';
import { shadowParams, validateShadows } from '../../ai/shadowModel';
import type { ShadowModel } from '../../ai/types';
import { TIMEFRAMES, type StrategyConfig, type StrategyType } from '../types';
import { ActiveBadge, OperatorNote } from './controls';
import { FlashBanner, useFlash } from '@/components/Flash';
import { timeframeLabel } from '@/lib/timeframe';

type FlashApi = ReturnType<typeof useFlash>;

/** Form state for one strategy's config: numbers as typed, symbols as text, field errors. */
export function useConfigForm(config: StrategyConfig, specs: NumberSpec[], flash: FlashApi, msgs: { saved: string; failed: string }) {
  const [draft, setDraft] = useState(() => toDraft(config, specs));
  const [symbols, setSymbols] = useState(config.symbols.join(', '));
  const [timeframe, setTimeframe] = useState(config.timeframe || 'ONE_HOUR');
  const [model, setModel] = useState(config.model ?? '');
  const [memory, setMemoryDraft] = useState(() => toMemoryDraft(config));
  const [shadows, setShadowsDraft] = useState<ShadowModel[]>(() => config.shadow_models ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveConfig(config.name);

  const set = (key: string, v: string) => {
    setDraft((d) => ({ ...d, [key]: v }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)));
  };

  /** Changes the trade memory controls; their errors (and prompt_version's, which memory can cause) clear. */
  const setMemory = (m: Partial<MemoryDraft>) => {
    setMemoryDraft((d) => ({ ...d, ...m }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('memory.') && k !== 'prompt_version')));
  };

  /** Changes the shadow model list; its errors clear. */
  const setShadows = (rows: ShadowModel[]) => {
    setShadowsDraft(rows);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('shadow_models'))));
  };

  /** The partial document PUT saves. */
  const build = (): Partial<StrategyConfig> => {
    const c: Partial<StrategyConfig> = { ...fromDraft(draft), symbols: parseSymbols(symbols), timeframe };
    if (config.model !== undefined) {
      c.model = model.trim();
      const m = memoryParams(memory, config.memory);
      if (m) c.memory = m;
      c.shadow_models = shadowParams(shadows);
    }
    return c;
  };

  const submit = () => {
    const c = build();
    const errs = { ...validate(c), ...(c.memory ? validateMemory(memory) : {}), ...(c.shadow_models ? validateShadows(c.shadow_models) : {}) };
    setErrors(errs);
    const first = Object.values(errs)[0];
    if (first) {
      flash.fail(first);
      return;
    }
    setSymbols(c.symbols!.join(', '));
    save.mutate(c, {
      onSuccess: () => flash.ok(msgs.saved),
      onError: (err) => {
        if (err instanceof ApiError) setErrors(err.fields);
        flash.fail(msgs.failed, err);
      },
    });
  };

  return { draft, set, symbols, setSymbols, timeframe, setTimeframe, model, setModel, memory, setMemory, shadows, setShadows, errors, submit, saving: save.isPending };
}

export function TimeframeField({ value, onChange, disabled }: { value: string; onChange: (v: string) => void; disabled?: boolean }) {
  return (
    <div>
      <label htmlFor="f-timeframe" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Timeframe
      </label>
      <select id="f-timeframe" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} className="mt-1 w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800">
        {TIMEFRAMES.map((t) => (
          <option key={t} value={t}>
            {timeframeLabel(t)}
          </option>
        ))}
      </select>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Evaluated once per closed candle of this width.</p>
    </div>
  );
}

/** Picks which instance of the given types the screen configures. */
export function StrategyPicker({ types, value, onChange }: { types: StrategyType[]; value: string; onChange: (name: string) => void }) {
  const list = useStrategies();
  const names = (list.data ?? []).filter((s) => types.includes(s.type)).map((s) => s.name);
  if (names.length <= 1) return null;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-500 dark:text-slate-400">Strategy</span>
      <select aria-label="Strategy" value={value} onChange={(e) => onChange(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-800">
        {names.map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
    </label>
  );
}

/** Active/Inactive with the Enable/Disable action; the flag flips after the server agrees. */
export function EnableControl({ config, flash, msgs }: { config: StrategyConfig; flash: FlashApi; msgs: { enabled: string; disabled: string; enableFailed: string; disableFailed: string } }) {
  const operator = useIsOperator();
  const toggle = useSetEnabled();
  const on = config.enabled;
  const click = () =>
    toggle.mutate(
      { name: config.name, on: !on },
      { onSuccess: () => flash.ok(on ? msgs.disabled : msgs.enabled), onError: (err) => flash.fail(on ? msgs.disableFailed : msgs.enableFailed, err) },
    );
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-3">
        <ActiveBadge on={on} />
        <button type="button" className={on ? btn.danger : btn.primary} disabled={!operator || toggle.isPending} onClick={click}>
          {on ? 'Disable' : 'Enable'}
        </button>
      </div>
      {!operator && <OperatorNote />}
    </div>
  );
}

/**
 * The frame both configuration screens share: the instance picker, the
 * enable control, the flash banner and loading/error states around the form.
 */
export function ConfigScreen({
  name,
  onPick,
  types,
  msgs,
  form,
}: {
  name: string;
  onPick?: (name: string) => void;
  types: StrategyType[];
  msgs: { enabled: string; disabled: string; enableFailed: string; disableFailed: string };
  form: (config: StrategyConfig, flash: FlashApi) => ReactNode;
}) {
  useSignalStream();
  const cfg = useStrategyConfig(name);
  const flash = useFlash();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        {onPick ? <StrategyPicker types={types} value={name} onChange={onPick} /> : <span />}
        {cfg.data && <EnableControl config={cfg.data} flash={flash} msgs={msgs} />}
      </div>
      <FlashBanner flash={flash.flash} />
      {cfg.data?.version ? (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="config-version">
          Runs version {cfg.data.version}. Saving stores a new version; earlier ones stay under Strategy Management → Versions.
        </p>
      ) : null}
      {cfg.isLoading && <Spinner />}
      {cfg.error && <p role="alert" className="text-sm text-red-600">{String((cfg.error as Error).message)}</p>}
      {cfg.data && form(cfg.data, flash)}
    </div>
  );
}
