import { useState } from 'react';
import { btn, inputClass } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { ApiError } from '@/lib/api';
import { formatShare } from '@/lib/format';
import { strategyApi, useAIDecisions, useIsOperator } from '../../strategies/api';
import { AI_FIELDS, confidenceClass, DECISION_CLASS, modelLabel, MSG, parseSymbols, TRADING_FIELDS } from '../../strategies/model';
import type { Evaluation, StrategyConfig } from '../../strategies/types';
import { AIPerformanceView } from './AIPerformanceView';
import { AISpendCard } from './AISpendCard';
import { ConfigScreen, TimeframeField, useConfigForm } from '../../strategies/components/configForm';
import { Badge, NumberField, OperatorNote, SymbolsField } from '../../strategies/components/controls';
import { EvaluationTable } from '../../strategies/components/EvaluationTable';
import { PromptWorkbench } from './prompt/PromptWorkbench';
import { ShadowLeaderboard } from './ShadowLeaderboard';
import { ShadowModels } from './ShadowModels';
import { useShadowBoard } from '../shadowApi';
import { shadowsByEvaluation } from '../shadowModel';
import { TradeMemory } from '../../strategies/components/TradeMemory';
import type { useFlash } from '@/components/Flash';

/** The spec's model choices; the provider in Settings decides which real model each maps to. */
const MODELS = ['gpt-4.1-nano', 'gpt-4', 'gpt-3.5-turbo', 'gpt-4-turbo', 'claude-3-sonnet', 'llama-2-70b'];

/** The AI strategy configuration: enable/disable, the form, Test AI, performance and recent decisions. */
export function AIConfig({ name, onPick }: { name: string; onPick?: (name: string) => void }) {
  return (
    <ConfigScreen
      name={name}
      onPick={onPick}
      types={['ai_driven', 'hybrid']}
      msgs={{ enabled: MSG.aiEnabled, disabled: MSG.aiDisabled, enableFailed: MSG.aiEnableFailed, disableFailed: MSG.aiDisableFailed }}
      form={(config, flash) => <AIForm key={config.name} config={config} flash={flash} />}
    />
  );
}

function AIForm({ config, flash }: { config: StrategyConfig; flash: ReturnType<typeof useFlash> }) {
  const operator = useIsOperator();
  const f = useConfigForm(config, [...TRADING_FIELDS, ...AI_FIELDS], flash, { saved: MSG.aiSaved, failed: MSG.saveFailed });
  const builtin = config.provider === 'builtin';
  const decisions = useAIDecisions({ strategy: config.name, symbol: '', executed: '' });
  const board = useShadowBoard(config.name);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <Card title="Configuration" className="lg:col-span-2">
        <form
          className="space-y-5"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            f.submit();
          }}
        >
          <div className="grid gap-4 md:grid-cols-2">
            <div>
              <label htmlFor="f-model" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
                {builtin ? 'Model (for a model provider; the built-in analyst uses none)' : 'Model'}
              </label>
              <input id="f-model" list="ai-models" value={f.model} disabled={!operator} onChange={(e) => f.setModel(e.target.value)} className={inputClass} aria-invalid={!!f.errors.model} />
              <datalist id="ai-models">
                {MODELS.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              {f.errors.model ? (
                <p className="mt-1 text-xs text-red-600 dark:text-red-400">{f.errors.model}</p>
              ) : builtin ? (
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Answers come from <span data-testid="model-label" className="font-medium">{config.model_label ?? 'the built-in analyst'}</span>, the AI provider
                  chosen in Settings, API; this model is called once a model provider is chosen there.
                </p>
              ) : (
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  The AI provider (Settings, API) maps this to the model it calls
                  {config.model_label ? (
                    <>
                      : answered by <span data-testid="model-label" className="font-medium">{config.model_label}</span>.
                    </>
                  ) : (
                    '; Test AI shows the model used.'
                  )}
                </p>
              )}
            </div>
            <TimeframeField value={f.timeframe} onChange={f.setTimeframe} disabled={!operator} />
          </div>
          <SymbolsField value={f.symbols} onChange={f.setSymbols} error={f.errors.symbols} disabled={!operator} />
          <fieldset className="grid gap-4 md:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">Model Parameters</legend>
            {AI_FIELDS.map((s) => (
              <NumberField key={s.key} spec={s} draft={f.draft} errors={f.errors} onChange={f.set} disabled={!operator} />
            ))}
          </fieldset>
          <fieldset className="grid gap-4 md:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">Trading Parameters</legend>
            {TRADING_FIELDS.map((s) => (
              <NumberField key={s.key} spec={s} draft={f.draft} errors={f.errors} onChange={f.set} disabled={!operator} />
            ))}
          </fieldset>
          <TradeMemory value={f.memory} errors={f.errors} onChange={f.setMemory} disabled={!operator} />
          <ShadowModels value={f.shadows} errors={f.errors} onChange={f.setShadows} disabled={!operator} />
          <div className="flex items-center gap-3">
            <button type="submit" className={btn.primary} disabled={!operator || f.saving}>
              {f.saving ? 'Saving...' : 'Save Configuration'}
            </button>
            {!operator && <OperatorNote>Only operators can save strategy configurations.</OperatorNote>}
          </div>
        </form>
      </Card>
      <div className="space-y-4">
        <TestAI name={config.name} symbolsText={f.symbols} flash={flash} />
        <AIPerformanceView name={config.name} />
      </div>
      <div className="min-w-0 lg:col-span-3">
        <PromptWorkbench name={config.name} symbols={config.symbols} flash={flash} />
      </div>
      {operator && (
        <div className="min-w-0 lg:col-span-3">
          <AISpendCard />
        </div>
      )}
      <Card title="Recent AI Decisions" className="lg:col-span-3">
        {decisions.error ? (
          <p role="alert" className="text-sm text-red-600">{MSG.loadDecisions}</p>
        ) : (
          <EvaluationTable rows={(decisions.data ?? []).slice(0, 10)} empty={MSG.noDecisions} showModel shadows={shadowsByEvaluation(board.data)} />
        )}
      </Card>
      {(board.data?.evaluations || config.shadow_models?.length) ? (
        <div className="min-w-0 lg:col-span-3">
          <ShadowLeaderboard board={board.data} error={board.error} />
        </div>
      ) : null}
    </div>
  );
}

interface TestResult {
  symbol: string;
  ev?: Evaluation;
  error?: string;
}

/** Test AI: asks the strategy's model about each listed symbol now; recorded, never traded. */
function TestAI({ name, symbolsText, flash }: { name: string; symbolsText: string; flash: ReturnType<typeof useFlash> }) {
  const operator = useIsOperator();
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<TestResult[]>([]);
  const run = async () => {
    const symbols = parseSymbols(symbolsText);
    if (symbols.length === 0) {
      flash.fail(MSG.testSymbols);
      return;
    }
    setRunning(true);
    const out: TestResult[] = [];
    let failed: unknown = null;
    let callFailed: unknown = null;
    for (const symbol of symbols) {
      try {
        out.push({ symbol, ev: await strategyApi.analyze(symbol, name) });
      } catch (err) {
        const ev = err instanceof ApiError && err.status === 502 && err.data && typeof err.data === 'object' ? (err.data as Evaluation) : undefined;
        out.push({ symbol, ev, error: err instanceof Error ? err.message : String(err) });
        if (ev) failed ??= err;
        else callFailed ??= err;
      }
      setResults([...out]);
    }
    setRunning(false);
    if (callFailed) flash.fail(MSG.testFailedCall, callFailed);
    else if (failed) flash.fail(MSG.testFailed, failed);
    else flash.ok(MSG.testOk);
  };
  return (
    <Card title="Test AI">
      <p className="mb-3 text-sm text-slate-500 dark:text-slate-400">Asks the model now about each symbol in the list. The decisions are recorded, not traded.</p>
      <button type="button" className={btn.secondary} disabled={!operator || running} onClick={() => void run()}>
        {running ? 'Testing...' : 'Test AI'}
      </button>
      {!operator && <OperatorNote>Only operators can run Test AI.</OperatorNote>}
      <ul className="mt-3 space-y-3" aria-label="Test AI results">
        {results.map((r) => (
          <li key={r.symbol} data-testid="test-ai-result" className="rounded border border-slate-200 p-3 text-sm dark:border-slate-800">
            <div className="flex items-center justify-between gap-2">
              <span className="font-semibold">{r.symbol}</span>
              {r.ev && !r.ev.error ? (
                <span className="flex items-center gap-2">
                  <Badge className={DECISION_CLASS[r.ev.decision] ?? ''}>{r.ev.decision}</Badge>
                  <span className={`font-semibold tabular-nums ${confidenceClass(r.ev.confidence)}`}>{formatShare(r.ev.confidence * 100, 0)}</span>
                </span>
              ) : (
                <Badge className="bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200">Failed</Badge>
              )}
            </div>
            <p className={`mt-1 ${r.ev && !r.ev.error ? '' : 'text-red-600 dark:text-red-400'}`}>{r.ev?.error || r.ev?.reasoning || r.error}</p>
            {r.ev && modelLabel(r.ev) && (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {modelLabel(r.ev)}
                {r.ev.latency_ms ? ` · ${r.ev.latency_ms} ms` : ''}
              </p>
            )}
            {r.ev?.prompt && (
              <details className="mt-1 text-xs">
                <summary className="cursor-pointer text-slate-500">Prompt sent</summary>
                <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 dark:bg-slate-950">{r.ev.prompt}</pre>
              </details>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
