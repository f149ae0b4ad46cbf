import { useState } from 'react';
import { api, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { canTestConnection, BOUNDS } from '../model';
import type { ApiSettings, ConnectionProvider, ConnectionResult, PlatformSettings, SettingsOptions } from '../types';
import { AISpendSettings } from './AISpendSettings';
import { Group, NumberInput, secondaryButton, SelectInput, TextInput, Toggle, toChoices } from './controls';

type TestStatus = 'untested' | 'testing' | 'Connected' | 'Failed';

interface TestState {
  status: TestStatus;
  message: string;
  /** The provider settings the result belongs to; an edit makes it untested again. */
  snapshot: string;
}

const EXCHANGE_LABELS: Record<string, string> = { sandbox: 'Paper (built-in sandbox)', coinbase: 'Coinbase' };
const MARKET_LABELS: Record<string, string> = { replay: 'Replay of Coinbase candles (offline)', coinbase: 'Coinbase live prices (public, no key)' };
const AI_LABELS: Record<string, string> = { builtin: 'Built-in analyst', replicate: 'Replicate', openai: 'OpenAI-compatible' };

export function ApiTab({ settings, options }: { settings: PlatformSettings; options: SettingsOptions }) {
  const section = settings.api as ApiSettings;
  const [tests, setTests] = useState<Partial<Record<ConnectionProvider, TestState>>>({});
  const me = useMe().data;
  // The server runs connection tests for operators only.
  const trader = !!me && me.role !== 'operator';
  const OPERATORS_ONLY = 'Only operators can test connections';

  const snapshotOf = (p: ConnectionProvider) => JSON.stringify(p === 'exchange' ? section.exchange : section.ai);
  const stateOf = (p: ConnectionProvider): TestState => {
    const t = tests[p];
    return t && t.snapshot === snapshotOf(p) ? t : { status: 'untested', message: '', snapshot: '' };
  };

  async function test(p: ConnectionProvider) {
    const snapshot = snapshotOf(p);
    setTests((t) => ({ ...t, [p]: { status: 'testing', message: '', snapshot } }));
    let next: TestState;
    try {
      const r = await api.post<ConnectionResult>('/settings/test-connection', { provider: p, settings: section });
      next = { status: r.status === 'Connected' ? 'Connected' : 'Failed', message: r.message ?? '', snapshot };
    } catch (err) {
      next = { status: 'Failed', message: errorMessage(err, 'Connection test failed'), snapshot };
    }
    setTests((t) => ({ ...t, [p]: next }));
  }

  const exchangeIsSandbox = section.exchange.provider === 'sandbox';
  const coinbase = section.exchange.provider === 'coinbase';
  return (
    <div className="space-y-6">
      <Group title="Exchange" effectKey="api.exchange">
        <SelectInput path="api.exchange.provider" label="Exchange provider" choices={toChoices(options.exchangeProviders, EXCHANGE_LABELS)} />
        {coinbase ? (
          <Toggle path="api.exchange.sandbox" label="Sandbox mode" />
        ) : (
          <p className="self-center text-sm text-slate-700 dark:text-slate-300" data-testid="paper-venue">
            Paper trading: the built-in exchange trades play money (Sandbox mode is Coinbase’s test environment, for the Coinbase provider)
          </p>
        )}
        <TextInput
          path="api.exchange.apiKey"
          label="API key"
          type="password"
          hint={exchangeIsSandbox ? 'Not needed for the built-in sandbox exchange' : coinbase ? 'The CDP key name: organizations/…/apiKeys/…' : undefined}
        />
        <TextInput
          path="api.exchange.apiSecret"
          label="API secret"
          type="password"
          hint={coinbase ? 'The key’s EC private key (PEM), as in the downloaded key file' : undefined}
        />
        {coinbase && (
          <div className="sm:col-span-2 space-y-1 text-xs text-slate-600 dark:text-slate-400" data-testid="coinbase-notes">
            <p>
              Sandbox mode sends accounts and orders to Coinbase’s sandbox, which answers with static responses (no matching, no
              balances that move); prices, candles and 24h statistics stay Coinbase’s live public market data.
            </p>
            <p>Coinbase has no stop-market order: stop-losses are placed as stop-limit orders with the limit 1% beyond the stop.</p>
            <p>Saving switches the running app to this exchange; orders already at the previous exchange stay there.</p>
          </div>
        )}
        <NumberInput path="api.exchange.timeout" label="Timeout" bound={BOUNDS.exchangeTimeout} />
        <NumberInput path="api.exchange.rateLimit" label="Rate limit" bound={BOUNDS.exchangeRateLimit} />
        <div className="sm:col-span-2">
          <ConnectionTest
            name="exchange"
            state={stateOf('exchange')}
            disabled={trader || !canTestConnection('exchange', settings)}
            disabledHint={trader ? OPERATORS_ONLY : 'Enter the API key and secret to test the connection'}
            onTest={() => void test('exchange')}
          />
        </div>
      </Group>

      <Group title="Market data" effectKey="api.marketData">
        <SelectInput
          path="api.marketData.source"
          label="Market data source"
          choices={toChoices(options.marketSources, MARKET_LABELS)}
          hint={
            coinbase
              ? 'The Coinbase venue always trades on Coinbase’s live prices'
              : 'Where the paper venue’s prices come from: live Coinbase prices make paper trading on the live market'
          }
        />
      </Group>

      <Group title="AI provider" effectKey="api.ai">
        <SelectInput path="api.ai.provider" label="AI provider" choices={toChoices(options.aiProviders, AI_LABELS)} />
        <TextInput path="api.ai.apiToken" label="API token" type="password" />
        {section.ai.provider === 'builtin' ? (
          <p className="self-center text-sm text-slate-700 dark:text-slate-300" data-testid="ai-model-builtin">
            Model: Built-in analyst (offline), the provider’s own rules; a model is chosen for Replicate or an OpenAI-compatible endpoint
          </p>
        ) : section.ai.provider === 'openai' ? (
          <TextInput path="api.ai.model" label="Model" placeholder="llama3.2" hint="The model name the endpoint serves" />
        ) : (
          <SelectInput path="api.ai.model" label="Model" choices={toChoices(options.aiModels)} />
        )}
        <NumberInput path="api.ai.timeout" label="Timeout" bound={BOUNDS.aiTimeout} />
        <NumberInput
          path="api.ai.backtestMaxModelCalls"
          label="Model calls per backtest"
          bound={BOUNDS.backtestMaxModelCalls}
        />
        {section.ai.provider === 'openai' && (
          <TextInput path="api.ai.baseUrl" label="Base URL" placeholder="https://api.openai.com/v1" hint="For OpenAI-compatible endpoints; save it before testing (the test calls only the saved endpoint)" />
        )}
        <div className="sm:col-span-2">
          <ConnectionTest
            name="AI provider"
            state={stateOf('ai')}
            disabled={trader || !canTestConnection('ai', settings)}
            disabledHint={
              trader
                ? OPERATORS_ONLY
                : section.ai.provider === 'openai'
                  ? 'Enter the base URL and model to test the connection'
                  : 'Enter the API token to test the connection'
            }
            onTest={() => void test('ai')}
          />
        </div>
      </Group>

      <Group title="AI prices and monthly budget" effectKey="api.ai">
        <AISpendSettings providers={options.aiProviders} models={[...new Set([section.ai.model, ...options.aiModels].filter((m) => m !== ''))]} />
      </Group>
    </div>
  );
}

function ConnectionTest({ name, state, disabled, disabledHint, onTest }: { name: string; state: TestState; disabled: boolean; disabledHint: string; onTest: () => void }) {
  const testing = state.status === 'testing';
  const badge =
    state.status === 'Connected'
      ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300'
      : state.status === 'Failed'
        ? 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300'
        : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300';
  const label = state.status === 'untested' ? 'Not tested' : state.status === 'testing' ? 'Testing...' : state.status;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className={secondaryButton} disabled={disabled || testing} onClick={onTest} title={`Test the ${name} connection`}>
        {testing ? 'Testing...' : 'Test Connection'}
      </button>
      <span role="status" className={`rounded px-2 py-0.5 text-xs font-medium ${badge}`}>
        {label}
      </span>
      {state.message && <span className="text-xs text-slate-600 dark:text-slate-400">{state.message}</span>}
      {disabled && !testing && <span className="text-xs text-slate-500 dark:text-slate-400">{disabledHint}</span>}
    </div>
  );
}
