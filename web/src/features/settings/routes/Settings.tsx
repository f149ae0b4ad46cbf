import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { ApiError, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { applyTheme } from '@/lib/theme';
import { Card, ScreenHeader } from '@/components/Screen';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ErrorBox, Field } from '@/components/Field';
import { importNotice, OPTIONS_KEY, replyFromError, SETTINGS_KEY, settingsApi } from '../api';
import { DEFAULT_TRADING, endpointMoves, exportFileName, FALLBACK_OPTIONS, sameJSON, setIn, venueSwitchConfirm } from '../model';
import type { ExportFile, PlatformSettings, Section, SettingsReply, ValidationIssue, ValidationResult } from '../types';
import { ApiTab } from '../components/ApiTab';
import { AI_SPEND_ANCHOR } from '../components/AISpendSettings';
import { SecretExport } from '../components/SecretExport';
import { dangerButton, primaryButton, secondaryButton, SectionHeader, SettingsFormContext, Unavailable, type SettingsForm } from '../components/controls';
import { SystemTab, TradingTab, UiTab } from '../components/SectionTabs';
import { MarketDataManager } from '../components/MarketDataManager';
import { fieldLabel } from '../fieldLabel';

export const RESET_CONFIRM = 'Are you sure you want to reset all settings to defaults? This cannot be undone.';
export const IMPORT_CONFIRM = 'Are you sure you want to import these settings? Current settings will be overwritten.';
export const INVALID_FILE = 'Invalid settings file format';

type Tab = Section | 'marketData';

const TABS: { id: Tab; label: string; description: string; unavailable?: string }[] = [
  {
    id: 'api',
    label: 'API Configuration',
    description: 'Configure API keys and connections',
    unavailable: 'API configuration is loading or unavailable. Please refresh the page.',
  },
  { id: 'trading', label: 'Trading', description: 'Configure trading parameters and risk management' },
  {
    id: 'ui',
    label: 'UI Preferences',
    description: 'Customize interface appearance and behavior',
    unavailable: 'UI preferences is loading or unavailable. Please refresh the page.',
  },
  {
    id: 'system',
    label: 'System',
    description: 'Configure system monitoring and security',
    unavailable: 'System settings is loading or unavailable. Please refresh the page.',
  },
  { id: 'marketData', label: 'Market data', description: 'Candle coverage, gaps, backfills and what backtests can use' },
];

const SECTIONS: Section[] = ['api', 'trading', 'ui', 'system'];

/** Same settings, ignoring version and lastUpdated (the server sets those). */
function sameSettings(a: PlatformSettings, b: PlatformSettings): boolean {
  return SECTIONS.every((s) => sameJSON(a[s] ?? null, b[s] ?? null));
}

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result ?? ''));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsText(file);
  });
}

function download(file: ExportFile) {
  const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName(new Date());
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

type Notice = { kind: 'error' | 'success'; text: string } | null;

export default function Settings() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: settingsApi.get });
  const me = useMe();
  const isOperator = me.data?.role === 'operator';
  const optionsQuery = useQuery({ queryKey: OPTIONS_KEY, queryFn: settingsApi.options, staleTime: Infinity });
  const options = optionsQuery.data ?? FALLBACK_OPTIONS;

  const [draft, setDraft] = useState<PlatformSettings | null>(null);
  const [liveValidation, setLiveValidation] = useState<ValidationResult | null>(null);
  // Bumped by every save, reset and import: a live validation asked before one of them answers
  // about a document the server has since judged, so its answer must not replace the server's.
  const judged = useRef(0);
  const [tab, setTab] = useState<Tab>('api');
  const [notice, setNotice] = useState<Notice>(null);
  // The question an action waits on (import, reset, a venue switch), asked in an in-app dialog.
  const [asking, ask] = useState<{ title: string; message: string; confirmLabel: string; danger?: boolean; password?: boolean; run: () => void } | null>(null);
  // The operator's password for a save that moves a saved secret's endpoint (read when the dialog confirms).
  const [movePassword, setMovePassword] = useState('');
  const movePasswordRef = useRef('');
  const fileInput = useRef<HTMLInputElement>(null);

  const reply = query.data;
  const saved = reply?.settings;
  const current = draft ?? saved;
  const dirty = !!draft && !!saved && !sameSettings(draft, saved);
  const validation = liveValidation ?? reply?.validation ?? null;
  const errors: ValidationIssue[] = validation?.errors ?? [];
  const warnings: ValidationIssue[] = validation?.warnings ?? [];

  // Validate edits on the server, debounced, so the lists track what is typed.
  useEffect(() => {
    if (!draft) return;
    let cancelled = false;
    const asked = judged.current;
    const timer = setTimeout(() => {
      settingsApi
        .validate(draft)
        .then((r) => {
          if (!cancelled && asked === judged.current) setLiveValidation(r);
        })
        .catch((err: unknown) => {
          if (!cancelled) console.error('Settings validation failed', err);
        });
    }, 400);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [draft]);

  // The AI screen's spend card links to the prices and budgets (#ai-spend-settings): once loaded, show them.
  const loaded = !!current;
  useEffect(() => {
    if (!loaded || window.location.hash !== `#${AI_SPEND_ANCHOR}`) return;
    setTab('api');
    document.getElementById(AI_SPEND_ANCHOR)?.scrollIntoView?.({ block: 'start' });
  }, [loaded]);

  function applyReply(r: SettingsReply) {
    const prevMode = saved?.ui?.theme?.mode;
    qc.setQueryData(SETTINGS_KEY, r);
    setDraft(null);
    setLiveValidation(null);
    const mode = r.settings.ui?.theme?.mode;
    if (mode && mode !== prevMode && (mode === 'light' || mode === 'dark' || mode === 'auto')) applyTheme(mode);
  }

  const save = useMutation({
    mutationFn: settingsApi.save,
    onMutate: () => {
      judged.current++;
    },
    onSuccess: (r) => {
      applyReply(r);
      setNotice({ kind: 'success', text: 'Settings saved' });
    },
    onError: (err) => {
      const r = replyFromError(err);
      if (r) setLiveValidation(r.validation);
      setNotice({ kind: 'error', text: errorMessage(err, 'Could not save settings') });
    },
  });

  const reset = useMutation({
    mutationFn: settingsApi.reset,
    onMutate: () => {
      judged.current++;
    },
    onSuccess: (r, section) => {
      if (section === '' || !draft) {
        applyReply(r);
      } else {
        // Keep unsaved edits in the other sections.
        qc.setQueryData(SETTINGS_KEY, r);
        setDraft({ ...draft, [section]: r.settings[section] });
        setLiveValidation(null);
      }
      setNotice({ kind: 'success', text: section === '' ? 'All settings reset to defaults' : 'Section reset to defaults' });
    },
    onError: (err) => setNotice({ kind: 'error', text: errorMessage(err, 'Could not reset settings') }),
  });

  const importM = useMutation({
    mutationFn: settingsApi.importFile,
    onMutate: () => {
      judged.current++;
    },
    onSuccess: (r) => {
      applyReply(r);
      setNotice({ kind: 'success', text: importNotice(r.keptSecrets) });
    },
    onError: (err) => {
      const r = replyFromError(err);
      if (r) setLiveValidation(r.validation);
      const invalid = err instanceof ApiError && err.status === 400;
      setNotice({ kind: 'error', text: invalid ? INVALID_FILE : errorMessage(err, 'Could not import settings') });
    },
  });

  const exportM = useMutation({
    mutationFn: settingsApi.exportFile,
    onSuccess: download,
    onError: (err) => setNotice({ kind: 'error', text: errorMessage(err, 'Could not export settings') }),
  });

  function saveDraft() {
    if (!draft) return;
    const doc = draft;
    const switching = saved ? venueSwitchConfirm(saved, doc) : null;
    const moves = saved ? endpointMoves(saved, doc) : [];
    if (moves.length > 0) {
      setMovePassword('');
      movePasswordRef.current = '';
      ask({
        title: 'Confirm with your password',
        message: `${switching ? `${switching} ` : ''}This save sends ${moves.join(', and ')}. Enter your password to allow it; without it the saved AI token and SMTP password are cleared (enter them again) and a new Telegram API URL is refused.`,
        confirmLabel: 'Save',
        password: true,
        run: () => save.mutate({ doc, password: movePasswordRef.current || undefined }),
      });
    } else if (switching) ask({ title: 'Switch Exchange', message: switching, confirmLabel: 'Save and switch', run: () => save.mutate({ doc }) });
    else save.mutate({ doc });
  }

  const busy = save.isPending || reset.isPending || importM.isPending;

  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const form: SettingsForm | null = current
    ? {
        settings: current.trading ? current : { ...current, trading: DEFAULT_TRADING },
        effects: reply?.effects ?? null,
        fieldErrors,
        set: (path, value) => {
          setNotice(null);
          setDraft((d) => {
            let base = d ?? saved;
            if (!base) return d;
            if (path.startsWith('trading.') && !base.trading) base = { ...base, trading: DEFAULT_TRADING };
            return setIn(base, path.split('.'), value);
          });
        },
      }
    : null;

  async function onImportFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    let parsed: unknown;
    try {
      if (!file.name.toLowerCase().endsWith('.json')) throw new Error('not json');
      parsed = JSON.parse(await readText(file));
      if (!isObject(parsed) || !isObject(parsed.settings)) throw new Error('no settings');
    } catch {
      setNotice({ kind: 'error', text: INVALID_FILE });
      return;
    }
    ask({
      title: 'Import Settings',
      message: IMPORT_CONFIRM,
      confirmLabel: 'Import',
      run: () => {
        setNotice(null);
        importM.mutate(parsed);
      },
    });
  }

  function resetSection(section: Section, label: string) {
    ask({
      title: 'Reset to Defaults',
      message: `Are you sure you want to reset ${label} settings to defaults?`,
      confirmLabel: 'Reset',
      danger: true,
      run: () => {
        setNotice(null);
        reset.mutate(section);
      },
    });
  }

  const header = (
    <ScreenHeader title="Settings" subtitle="Configure platform settings and preferences">
      <input ref={fileInput} type="file" accept=".json,application/json" className="hidden" data-testid="settings-import-input" onChange={(e) => void onImportFile(e)} />
      <button type="button" className={secondaryButton} disabled={busy || !saved} onClick={() => fileInput.current?.click()}>
        Import
      </button>
      <button type="button" className={secondaryButton} disabled={exportM.isPending || !saved} onClick={() => exportM.mutate()}>
        Export
      </button>
      {isOperator && saved && <SecretExport onExported={download} />}
      <button
        type="button"
        className={dangerButton}
        disabled={busy || !saved}
        onClick={() =>
          ask({
            title: 'Reset All Settings',
            message: RESET_CONFIRM,
            confirmLabel: 'Reset All',
            danger: true,
            run: () => {
              setNotice(null);
              reset.mutate('');
            },
          })
        }
      >
        Reset All
      </button>
      <button type="button" className={primaryButton} disabled={save.isPending || !dirty} onClick={saveDraft}>
        {save.isPending ? 'Saving...' : 'Save Changes'}
      </button>
      {asking && (
        <ConfirmDialog
          title={asking.title}
          message={asking.message}
          confirmLabel={asking.confirmLabel}
          danger={asking.danger}
          onCancel={() => ask(null)}
          onConfirm={() => {
            ask(null);
            asking.run();
          }}
        >
          {asking.password && (
            <div className="mt-3">
              <Field
                id="settings-move-password"
                label="Your password"
                type="password"
                autoComplete="current-password"
                value={movePassword}
                onChange={(e) => {
                  setMovePassword(e.target.value);
                  movePasswordRef.current = e.target.value;
                }}
              />
            </div>
          )}
        </ConfirmDialog>
      )}
    </ScreenHeader>
  );

  if (query.isPending) {
    return (
      <>
        {header}
        <p className="text-slate-500 dark:text-slate-400">Loading settings...</p>
      </>
    );
  }
  if (query.isError || !current || !form) {
    return (
      <>
        {header}
        <ErrorBox message={errorMessage(query.error, 'Could not load settings')} />
        <button type="button" className={`${secondaryButton} mt-3`} onClick={() => void query.refetch()}>
          Retry
        </button>
      </>
    );
  }

  const active = TABS.find((t) => t.id === tab) ?? TABS[0]!;
  // Traders read the platform sections (api, trading, system); only operators change them.
  const readOnly = !!me.data && !isOperator && active.id !== 'ui';
  const section: Section | null = active.id === 'marketData' ? null : active.id;
  const sectionMissing = section !== null && section !== 'trading' && !current[section];

  return (
    <>
      {header}

      <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm dark:border-slate-800 dark:bg-slate-900/60" aria-label="Settings status">
        {dirty && <span className="font-medium text-amber-600 dark:text-amber-400">Unsaved changes</span>}
        <span className="text-slate-600 dark:text-slate-400">{current.lastUpdated ? `Last saved: ${formatDateTime(current.lastUpdated)}` : 'Not saved yet (defaults)'}</span>
        <span className={errors.length ? 'text-red-600 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}>{plural(errors.length, 'error')}</span>
        <span className={warnings.length ? 'text-amber-600 dark:text-amber-400' : 'text-slate-600 dark:text-slate-400'}>{plural(warnings.length, 'warning')}</span>
      </div>

      {notice?.kind === 'error' && (
        <div className="mb-4">
          <ErrorBox message={notice.text} />
        </div>
      )}
      {notice?.kind === 'success' && (
        <div role="status" className="mb-4 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
          {notice.text}
        </div>
      )}

      <div role="tablist" aria-label="Settings sections" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`settings-tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`settings-panel-${t.id}`}
            onClick={() => setTab(t.id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${
              t.id === tab
                ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
                : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`settings-panel-${active.id}`} aria-labelledby={`settings-tab-${active.id}`}>
        {active.id === 'marketData' ? (
          <Card title="Market data">
            <MarketDataManager isOperator={isOperator} />
          </Card>
        ) : (
        <Card>
          <SectionHeader title={active.label} description={active.description} resetting={reset.isPending || readOnly} onReset={() => section && resetSection(section, active.label)} />
          {sectionMissing ? (
            <Unavailable message={active.unavailable ?? ''} />
          ) : (
            <SettingsFormContext.Provider value={form}>
              {readOnly && (
                <p className="mb-4 rounded border border-slate-300 bg-slate-50 p-3 text-sm text-slate-600 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-300">
                  Only operators can change platform settings. You can read them here; your UI preferences are yours to change.
                </p>
              )}
              {/* A disabled fieldset makes every control inside read-only for traders. */}
              <fieldset disabled={readOnly} className="min-w-0">
                {active.id === 'api' && <ApiTab settings={form.settings} options={options} />}
                {active.id === 'trading' && <TradingTab options={options} />}
                {active.id === 'ui' && <UiTab options={options} />}
                {active.id === 'system' && <SystemTab options={options} />}
              </fieldset>
            </SettingsFormContext.Provider>
          )}
        </Card>
        )}
      </div>

      {errors.length > 0 && (
        <Card className="mt-4 border-red-300 dark:border-red-900" title="Configuration Errors">
          <IssueList items={errors} tone="error" />
        </Card>
      )}
      {warnings.length > 0 && (
        <Card className="mt-4 border-amber-300 dark:border-amber-900" title="Configuration Warnings">
          <IssueList items={warnings} tone="warning" />
        </Card>
      )}
    </>
  );
}

function IssueList({ items, tone }: { items: ValidationIssue[]; tone: 'error' | 'warning' }) {
  const color = tone === 'error' ? 'text-red-700 dark:text-red-300' : 'text-amber-700 dark:text-amber-300';
  return (
    <ul className="space-y-1 text-sm">
      {items.map((i, n) => (
        <li key={`${i.field}-${n}`} className={color}>
          {i.message}
          {i.field && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">({fieldLabel(i.field)})</span>}
        </li>
      ))}
    </ul>
  );
}
