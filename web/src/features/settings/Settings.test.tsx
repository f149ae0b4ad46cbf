import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Settings, { INVALID_FILE, RESET_CONFIRM } from './routes/Settings';
import { anyStoredUnder, canTestConnection, effectOf, exportFileName } from './model';
import { LEVERAGE_NOTE } from './components/SectionTabs';
import type { PlatformSettings, SettingsReply } from './types';

function sampleSettings(): PlatformSettings {
  return {
    version: '1.0.0',
    lastUpdated: '2025-01-02T03:04:05Z',
    api: {
      exchange: { provider: 'sandbox', apiKey: '', apiSecret: '', sandbox: true, timeout: 30000, rateLimit: 10 },
      marketData: { source: 'replay' },
      ai: { provider: 'builtin', apiToken: '', model: 'gpt-4.1-nano', baseUrl: '', timeout: 60000 },
    },
    trading: {
      defaultParameters: { quantity: 0.01, orderType: 'market' },
      riskManagement: {
        maxPositionSize: 0.1,
        dailyLossLimit: 0.05,
        maxDrawdown: 0.15,
        stopLossPercent: 0.02,
        maxOpenPositions: 10,
        maxDailyTrades: 50,
        minTradeAmount: 10,
        maxTradeAmount: 10000,
        maxLeverage: 1,
        takeProfitPercent: 0.04,
      },
      automation: { autoTrading: false, emergencyStop: false, confirmTrades: true, enableStopLoss: true, enableTakeProfit: false },
    },
    ui: {
      theme: { mode: 'dark', fontSize: 'medium' },
      dashboard: { showMetrics: true, showCharts: true, showRecentTrades: true, refreshInterval: 5000 },
      charts: { type: 'candlestick', timeframe: '1h' },
      notifications: { trades: true, alerts: true, system: true, email: false, push: false },
      display: { currency: 'USD', decimalPlaces: 2, thousandsSeparator: ',', dateFormat: 'MM/DD/YYYY', timeFormat: '24h' },
      language: { timezone: 'UTC' },
    },
    system: {
      monitoring: { enableHealthChecks: true, healthCheckInterval: 60000 },
      logging: { level: 'INFO', logRetention: 7 },
      backup: { enableAutoBackup: true, backupInterval: 86400000, backupRetention: 7 },
      security: { enableTwoFactor: false, sessionTimeout: 3600000 },
      performance: { enableCaching: true, cacheTimeout: 300000, enableCompression: true, maxConcurrentRequests: 10, requestTimeout: 30000 },
      retention: { backtests: 90, sweeps: 90, jobs: 30, notifications: 30, aiDecisions: 365, auditLog: 365 },
      quotas: { storedBacktests: 100, activeBacktests: 5, activeSweeps: 2, requestBacktests: 5, minFreeDiskMB: 1024 },
    },
  };
}

function reply(settings = sampleSettings()): SettingsReply {
  return {
    settings,
    validation: { isValid: true, errors: [], warnings: [{ field: 'api.ai.apiToken', message: 'Replicate API token is recommended for AI features', severity: 'warning' }] },
    effects: { 'api.exchange.provider': 'applied', 'api.exchange.timeout': 'stored', 'system.monitoring': 'stored' },
  };
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (method: string, url: string, body: unknown) => Response | undefined;

/** A fetch mock answering the settings endpoints; extra handles what a test cares about. */
function mockServer(extra: Handler = () => undefined) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    const r = extra(method, url, body);
    if (r) return r;
    if (method === 'GET' && url === '/api/settings') return json(200, { success: true, data: reply() });
    if (method === 'GET' && url === '/api/settings/options') return json(404, { success: false, error: { code: 'not_found', message: 'nope' } });
    if (method === 'POST' && url === '/api/settings/validate') return json(200, { success: true, data: reply().validation });
    if (method === 'POST' && url === '/api/settings/reset') return json(200, { success: true, data: reply() });
    return json(500, { success: false, error: { code: 'internal', message: `unexpected ${method} ${url}` } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderSettings() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Settings />
    </QueryClientProvider>,
  );
}

/** Answers the in-app confirmation titled title with its confirm button. */
async function confirmIn(title: string, button: string) {
  await userEvent.click(within(await screen.findByRole('dialog', { name: title })).getByRole('button', { name: button }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Settings screen', () => {
  it('shows loading, then the tabs, the status strip and the warnings', async () => {
    mockServer();
    renderSettings();
    expect(screen.getByText('Loading settings...')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'API Configuration' })).toBeTruthy();
    for (const name of ['Trading', 'UI Preferences', 'System']) expect(screen.getByRole('tab', { name })).toBeTruthy();
    expect(screen.getByText('Configure API keys and connections')).toBeTruthy();
    expect(screen.getByText(/^Last saved: /)).toBeTruthy();
    expect(screen.getByText('0 errors')).toBeTruthy();
    expect(screen.getByText('1 warning')).toBeTruthy();
    expect(screen.getByText('Configuration Warnings')).toBeTruthy();
    expect(screen.getByText('Replicate API token is recommended for AI features')).toBeTruthy();
    expect(screen.queryByText('Configuration Errors')).toBeNull();
    // api.exchange.timeout is only stored by this build.
    expect(screen.getAllByText('Saved; not yet applied by this build').length).toBeGreaterThan(0);
  });

  it('says the built-in exchange is paper trading and the built-in analyst answers, with no Sandbox mode ticked or model shown for them', async () => {
    mockServer();
    renderSettings();
    expect((await screen.findByTestId('paper-venue')).textContent).toMatch(/^Paper trading: the built-in exchange trades play money/);
    expect(screen.queryByLabelText('Sandbox mode')).toBeNull();
    expect(screen.getByTestId('ai-model-builtin').textContent).toMatch(/^Model: Built-in analyst \(offline\)/);
    expect(screen.queryByText('gpt-4.1-nano')).toBeNull();
  });

  it('offers no setting that does nothing: the retired ones are gone from every tab', async () => {
    mockServer();
    renderSettings();
    await screen.findByRole('tab', { name: 'API Configuration' });
    const retired = [
      'Time in force',
      'Primary color',
      'Accent color',
      'Layout',
      'Indicators',
      'Show volume',
      'Show grid',
      'Sound',
      'Locale',
      'Enable performance metrics',
      'Metrics retention',
      'Enable file logging',
      'Enable remote logging',
      'Backup location',
    ];
    for (const tab of ['Trading', 'UI Preferences', 'System']) {
      await userEvent.click(screen.getByRole('tab', { name: tab }));
      const panel = screen.getByRole('tabpanel');
      for (const label of retired) expect(within(panel).queryByText(label), `${tab}: ${label}`).toBeNull();
    }
    // What stays is there: the check looks at the rendered tabs.
    expect(within(screen.getByRole('tabpanel')).getByText('Log retention')).toBeTruthy();
  });

  it('asks for the password before a save that sends saved secrets to a new address, and sends it with the save', async () => {
    let saved: (PlatformSettings & { password?: string }) | undefined;
    mockServer((method, url, body) => {
      if (method === 'GET' && url === '/api/settings') {
        const s = sampleSettings();
        s.system!.notifications = { smtpHost: '', smtpPort: 587, smtpSecurity: 'starttls', smtpUser: '', smtpPassword: '', smtpFrom: '', digestTime: '07:00', telegramApiUrl: '' };
        return json(200, { success: true, data: reply(s) });
      }
      if (method === 'PUT' && url === '/api/settings') {
        saved = body as PlatformSettings & { password?: string };
        return json(200, { success: true, data: reply(body as PlatformSettings) });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.click(await screen.findByRole('tab', { name: 'System' }));
    await userEvent.type(screen.getByLabelText('Telegram Bot API URL'), 'https://bots.example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm with your password' });
    expect(dialog.textContent).toMatch(/every Telegram channel's bot token to the new Telegram API URL/);
    expect(saved).toBeUndefined();
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'correct horse battery');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved?.password).toBe('correct horse battery');
    expect(saved?.system?.notifications?.telegramApiUrl).toBe('https://bots.example.org');
  });

  it('keeps Save disabled until something changes, then saves', async () => {
    let saved: unknown;
    mockServer((method, url, body) => {
      if (method === 'GET' && url === '/api/settings') {
        const s = sampleSettings();
        s.api!.exchange.provider = 'coinbase'; // Sandbox mode is Coinbase's
        return json(200, { success: true, data: reply(s) });
      }
      if (method === 'PUT' && url === '/api/settings') {
        saved = body;
        return json(200, { success: true, data: reply(body as PlatformSettings) });
      }
      return undefined;
    });
    renderSettings();
    const sandbox = await screen.findByLabelText('Sandbox mode');
    const save = screen.getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(screen.queryByText('Unsaved changes')).toBeNull();

    await userEvent.click(sandbox);
    expect(save.disabled).toBe(false);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await userEvent.click(save);
    await waitFor(() => expect(save.disabled).toBe(true));
    expect((saved as PlatformSettings).api?.exchange.sandbox).toBe(false);
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('edits take profit next to stop loss, with its status from the effects table', async () => {
    let saved: PlatformSettings | undefined;
    mockServer((method, url, body) => {
      if (method === 'GET' && url === '/api/settings') {
        const r = reply();
        r.effects = { 'trading.riskManagement': 'applied', 'trading.riskManagement.takeProfitPercent': 'stored' };
        return json(200, { success: true, data: r });
      }
      if (method === 'PUT' && url === '/api/settings') {
        saved = body as PlatformSettings;
        return json(200, { success: true, data: reply(saved) });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.click(await screen.findByRole('tab', { name: 'Trading' }));
    const tp = screen.getByLabelText(/^Take profit/) as HTMLInputElement;
    // Stored as a fraction (0.04), shown and typed as a percentage.
    expect(tp.value).toBe('4');
    expect(tp.min).toBe('0.5');
    expect(tp.max).toBe('100');
    expect(screen.getByLabelText(/^Max position size/).closest('div')!.textContent).toContain('(%)');
    expect((screen.getByLabelText(/^Max position size/) as HTMLInputElement).value).toBe('10');
    // The field right after stop loss, in the same group.
    const stop = screen.getByLabelText(/^Stop loss/);
    expect(stop.compareDocumentPosition(tp) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Only take profit is "stored"; the rest of risk management is applied.
    const notes = screen.getAllByText('Saved; not yet applied by this build');
    expect(notes).toHaveLength(1);
    expect(tp.parentElement!.contains(notes[0]!)).toBe(true);
    expect(screen.getByLabelText('Enable take profit')).toBeTruthy();
    expect(screen.getByText(LEVERAGE_NOTE)).toBeTruthy();
    expect(LEVERAGE_NOTE).toBe('Spot account: values above 1 cannot be used (no borrowing); exposure is capped at 1x equity.');

    await userEvent.clear(tp);
    await userEvent.type(tp, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(saved?.trading?.riskManagement.takeProfitPercent).toBe(0.05));
  });

  it('shows what each retention keeps and the quotas, and saves a change', async () => {
    let saved: PlatformSettings | undefined;
    mockServer((method, url, body) => {
      if (method === 'PUT' && url === '/api/settings') {
        saved = body as PlatformSettings;
        return json(200, { success: true, data: reply(saved) });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.click(await screen.findByRole('tab', { name: 'System' }));
    const audit = screen.getByLabelText(/^Audit log/) as HTMLInputElement;
    expect(audit.value).toBe('365');
    expect(screen.getByText('Keeps each audit log entry this many days; 0 keeps them all')).toBeTruthy();
    expect((screen.getByLabelText(/^Backtest reports/) as HTMLInputElement).value).toBe('90');
    expect(screen.getByText(/Keeps each backtest report, and the job that made it/)).toBeTruthy();
    expect(screen.getByText(/Keeps each delivered or failed notification/)).toBeTruthy();
    expect(screen.getByText(/strategy evaluation \(decision, reasoning, prompt\)/)).toBeTruthy();
    expect((screen.getByLabelText(/^Queued or running backtests per user/) as HTMLInputElement).value).toBe('5');
    expect(screen.getByText(/orders, cancels and the emergency stop always work/)).toBeTruthy();

    await userEvent.clear(audit);
    await userEvent.type(audit, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(saved?.system?.retention?.auditLog).toBe(30));
  });

  it('lists the server errors when a save is rejected', async () => {
    mockServer((method, url) => {
      if (method === 'PUT' && url === '/api/settings') {
        const r = reply();
        r.validation = { isValid: false, errors: [{ field: 'api.exchange.apiKey', message: 'Coinbase API key is required', severity: 'error' }], warnings: [] };
        return json(400, { success: false, data: r, error: { code: 'invalid', message: 'Settings have 1 error(s)' } });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.selectOptions(await screen.findByLabelText('Exchange provider'), 'coinbase');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await confirmIn('Switch Exchange', 'Save and switch'); // switching the venue asks first
    expect(await screen.findByText('Configuration Errors')).toBeTruthy();
    expect(screen.getAllByText('Coinbase API key is required').length).toBeGreaterThan(0);
    expect(screen.getByRole('alert').textContent).toBe('Settings have 1 error(s)');
    // The field is named by its label, not its internal key.
    expect(screen.getByText('(API key)')).toBeTruthy();
    expect(screen.queryByText('(api.exchange.apiKey)')).toBeNull();
  });

  it('asks before switching the paper venue to live Coinbase prices, and saves nothing when declined', async () => {
    const puts: PlatformSettings[] = [];
    mockServer((method, url, body) => {
      if (method === 'PUT' && url === '/api/settings') {
        puts.push(body as PlatformSettings);
        return json(200, { success: true, data: reply(body as PlatformSettings) });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.selectOptions(await screen.findByLabelText('Market data source'), 'coinbase');
    const save = screen.getByRole('button', { name: 'Save Changes' });
    await userEvent.click(save);
    const dialog = screen.getByRole('dialog', { name: 'Switch Exchange' });
    expect(dialog.textContent).toContain('from "Paper · replayed Coinbase candles" to "Paper · live Coinbase prices"');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(puts).toHaveLength(0);
    await userEvent.click(save);
    await confirmIn('Switch Exchange', 'Save and switch');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.api?.marketData.source).toBe('coinbase');
  });

  it('asks before Reset All and does nothing when declined', async () => {
    const fetchMock = mockServer();
    renderSettings();
    await userEvent.click(await screen.findByRole('button', { name: 'Reset All' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset All Settings' });
    expect(within(dialog).getByText(RESET_CONFIRM)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/settings/reset')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Reset All' }));
    await confirmIn('Reset All Settings', 'Reset All');
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([url]) => url === '/api/settings/reset');
      expect(call && JSON.parse(String(call[1]?.body))).toEqual({ section: '' });
    });
  });

  it('shows Invalid settings file format for an unparseable import', async () => {
    mockServer();
    renderSettings();
    await screen.findByRole('button', { name: 'Import' });
    const input = screen.getByTestId('settings-import-input') as HTMLInputElement;
    const file = new File(['{not json'], 'settings.json', { type: 'application/json' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } });
    });
    expect(await screen.findByText(INVALID_FILE)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows Invalid settings file format when the server rejects the file', async () => {
    mockServer((method, url) => {
      if (method === 'POST' && url === '/api/settings/import') return json(400, { success: false, error: { code: 'invalid', message: 'Invalid settings file format' } });
      return undefined;
    });
    renderSettings();
    await screen.findByRole('button', { name: 'Import' });
    const input = screen.getByTestId('settings-import-input') as HTMLInputElement;
    const file = new File([JSON.stringify({ settings: { bogus: 1 }, exportDate: 'x', version: '1.0.0', checksum: 'x' })], 'settings.json', { type: 'application/json' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } });
    });
    await confirmIn('Import Settings', 'Import');
    expect(await screen.findByText(INVALID_FILE)).toBeTruthy();
  });

  it('says which stored secrets an import kept because the file left them blank', async () => {
    mockServer((method, url) => {
      if (method === 'POST' && url === '/api/settings/import') {
        return json(200, { success: true, data: { ...reply(), keptSecrets: ['api.exchange.apiKey', 'api.exchange.apiSecret', 'api.ai.apiToken'] } });
      }
      return undefined;
    });
    renderSettings();
    await screen.findByRole('button', { name: 'Import' });
    const input = screen.getByTestId('settings-import-input') as HTMLInputElement;
    const file = new File([JSON.stringify({ settings: sampleSettings(), exportDate: 'x', version: '1.0.0', checksum: 'x' })], 'settings.json', { type: 'application/json' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } });
    });
    await confirmIn('Import Settings', 'Import');
    expect(await screen.findByText('Settings imported; kept the stored exchange API key, exchange API secret and AI API token (the file left them blank)')).toBeTruthy();
  });

  it('enables Test Connection for the sandbox exchange and the built-in analyst without keys and reports the result', async () => {
    mockServer((method, url) => {
      if (method === 'POST' && url === '/api/settings/test-connection') return json(200, { success: true, data: { provider: 'sandbox', status: 'Connected', message: 'The built-in sandbox exchange is running' } });
      return undefined;
    });
    renderSettings();
    const [exchangeTest, aiTest] = (await screen.findAllByRole('button', { name: 'Test Connection' })) as HTMLButtonElement[];
    expect(exchangeTest!.disabled).toBe(false);
    expect(aiTest!.disabled).toBe(false);
    await userEvent.click(exchangeTest!);
    expect(await screen.findByText('Connected')).toBeTruthy();
  });

  it('shows the unavailable message when a section is missing', async () => {
    // A reply outside the contract (the section left out): the screen still copes.
    const s: Partial<PlatformSettings> = sampleSettings();
    delete s.system;
    mockServer((method, url) => (method === 'GET' && url === '/api/settings' ? json(200, { success: true, data: reply(s as PlatformSettings) }) : undefined));
    renderSettings();
    await userEvent.click(await screen.findByRole('tab', { name: 'System' }));
    expect(screen.getByText('System settings is loading or unavailable. Please refresh the page.')).toBeTruthy();
  });
});

describe('settings helpers', () => {
  it('resolves effects by the most specific key', () => {
    const effects = { 'system.monitoring': 'stored', 'system.logging.level': 'applied', ui: 'applied' };
    expect(effectOf(effects, 'system.monitoring.healthCheckInterval')).toBe('stored');
    expect(effectOf(effects, 'system.logging.level')).toBe('applied');
    expect(effectOf(effects, 'system.logging.logRetention')).toBeUndefined();
    expect(effectOf(effects, 'ui.theme.mode')).toBe('applied');
    expect(anyStoredUnder(effects, 'system')).toBe(true);
  });

  it('names the export file by date', () => {
    expect(exportFileName(new Date(2025, 0, 9))).toBe('platform-settings-2025-01-09.json');
  });

  it('needs key and secret for a real exchange, a token for Replicate and a base URL for an OpenAI-compatible endpoint', () => {
    const s = sampleSettings();
    expect(canTestConnection('exchange', s)).toBe(true);
    s.api!.exchange.provider = 'coinbase';
    expect(canTestConnection('exchange', s)).toBe(false);
    s.api!.exchange.apiKey = 'k';
    s.api!.exchange.apiSecret = 's';
    expect(canTestConnection('exchange', s)).toBe(true);
    expect(canTestConnection('ai', s)).toBe(true); // the built-in analyst needs nothing
    s.api!.ai.provider = 'replicate';
    expect(canTestConnection('ai', s)).toBe(false);
    s.api!.ai.apiToken = 't';
    expect(canTestConnection('ai', s)).toBe(true);
    s.api!.ai = { ...s.api!.ai, provider: 'openai', apiToken: '', baseUrl: '' };
    expect(canTestConnection('ai', s)).toBe(false);
    s.api!.ai.baseUrl = 'http://localhost:11434/v1';
    expect(canTestConnection('ai', s)).toBe(true);
  });

  it('shows platform sections read-only to traders', async () => {
    sessionStorage.setItem('kestrel_token', 'trader-token');
    mockServer((method, url) =>
      method === 'GET' && url === '/api/auth/me'
        ? json(200, { success: true, data: { id: 't1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '', last_login: null } })
        : undefined,
    );
    renderSettings();
    await screen.findByText(/Only operators can change platform settings/);
    for (const b of screen.getAllByRole('button', { name: 'Test Connection' })) expect(b.matches(':disabled')).toBe(true);
    expect(screen.getAllByText('Only operators can test connections')).toHaveLength(2);
    await userEvent.click(screen.getByRole('tab', { name: 'Trading' }));
    expect(screen.getByLabelText(/Max trade amount/).matches(':disabled')).toBe(true);
    await userEvent.click(screen.getByRole('tab', { name: 'UI Preferences' }));
    expect(screen.queryByText(/Only operators can change platform settings/)).toBeNull();
    expect(screen.getByLabelText(/Refresh interval/).matches(':disabled')).toBe(false);
    sessionStorage.removeItem('kestrel_token');
  });
});

describe('AI prices and monthly budget', () => {
  function priced(): PlatformSettings {
    const s = sampleSettings();
    s.api!.ai = { ...s.api!.ai, provider: 'openai', pricing: { 'gpt-4.1-nano': { input: '0.10', output: '0.40' } }, monthlyBudget: { openai: '5' } };
    return s;
  }

  it('edits the price table and the budgets as exact decimal text, and saves them', async () => {
    let saved: PlatformSettings | undefined;
    mockServer((method, url, body) => {
      if (method === 'GET' && url === '/api/settings') return json(200, { success: true, data: reply(priced()) });
      if (method === 'PUT' && url === '/api/settings') {
        saved = body as PlatformSettings;
        return json(200, { success: true, data: reply(saved) });
      }
      return undefined;
    });
    renderSettings();
    const input = (await screen.findByLabelText('Input price of gpt-4.1-nano')) as HTMLInputElement;
    expect(input.value).toBe('0.10');
    expect((screen.getByLabelText('Output price of gpt-4.1-nano') as HTMLInputElement).value).toBe('0.40');
    expect((screen.getByLabelText('Monthly budget for OpenAI-compatible') as HTMLInputElement).value).toBe('5');
    // The built-in analyst costs nothing: no budget is offered for it.
    expect(screen.queryByLabelText('Monthly budget for Built-in analyst')).toBeNull();

    await userEvent.clear(input);
    await userEvent.type(input, '0.1x');
    expect(screen.getByText('Enter a number in USD, e.g. 0.15')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, '0.15');

    const add = screen.getByRole('button', { name: 'Add price' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Model to price'), 'gpt-4.1-nano');
    await userEvent.type(screen.getByLabelText('Its input price'), '1');
    await userEvent.type(screen.getByLabelText('Its output price'), '2');
    expect(screen.getByText('gpt-4.1-nano already has a price: edit its row')).toBeTruthy();
    expect(add.disabled).toBe(true);
    await userEvent.clear(screen.getByLabelText('Model to price'));
    await userEvent.type(screen.getByLabelText('Model to price'), 'openai/gpt-4o-mini');
    await userEvent.click(add);
    expect((screen.getByLabelText('Output price of openai/gpt-4o-mini') as HTMLInputElement).value).toBe('2');

    await userEvent.clear(screen.getByLabelText('Monthly budget for OpenAI-compatible'));
    await userEvent.type(screen.getByLabelText('Monthly budget for Replicate'), '12.50');

    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(saved).toBeDefined());
    // Strings, as typed: money never goes through a float.
    expect(saved!.api!.ai.pricing).toEqual({ 'gpt-4.1-nano': { input: '0.15', output: '0.40' }, 'openai/gpt-4o-mini': { input: '1', output: '2' } });
    expect(saved!.api!.ai.monthlyBudget).toEqual({ replicate: '12.50' });
  });

  it('removes a price', async () => {
    let saved: PlatformSettings | undefined;
    mockServer((method, url, body) => {
      if (method === 'GET' && url === '/api/settings') return json(200, { success: true, data: reply(priced()) });
      if (method === 'PUT' && url === '/api/settings') {
        saved = body as PlatformSettings;
        return json(200, { success: true, data: reply(saved) });
      }
      return undefined;
    });
    renderSettings();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the price of gpt-4.1-nano' }));
    expect(screen.getByText(/No prices yet/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved!.api!.ai.pricing).toEqual({});
  });

  it("shows the server's validation messages under the price and the budget they belong to", async () => {
    const errors = [
      { field: 'api.ai.pricing.gpt-4.1-nano', message: 'Prices per million tokens cannot be negative', severity: 'error' },
      { field: 'api.ai.monthlyBudget.openai', message: 'Monthly budget cannot be negative', severity: 'error' },
    ];
    mockServer((method, url) => {
      if (method === 'GET' && url === '/api/settings') return json(200, { success: true, data: reply(priced()) });
      if (method === 'POST' && url === '/api/settings/validate') return json(200, { success: true, data: { isValid: false, errors, warnings: [] } });
      return undefined;
    });
    renderSettings();
    const budget = await screen.findByLabelText('Monthly budget for OpenAI-compatible');
    await userEvent.clear(budget);
    await userEvent.type(budget, '-1');
    await screen.findByText('Configuration Errors');
    const input = screen.getByLabelText('Input price of gpt-4.1-nano');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.textContent).toBe('Prices per million tokens cannot be negative');
    expect(budget.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(budget.getAttribute('aria-describedby')!)!.textContent).toBe('Monthly budget cannot be negative');
    // The list names the field as the form does, the whole model name included.
    expect(screen.getByText('(Price of gpt-4.1-nano)')).toBeTruthy();
    expect(screen.getByText('(Monthly budget for openai)')).toBeTruthy();
  });

  it('is where the AI spend card links to', async () => {
    mockServer();
    window.location.hash = '#ai-spend-settings';
    renderSettings();
    const anchor = await waitFor(() => {
      const el = document.getElementById('ai-spend-settings');
      if (!el) throw new Error('not yet');
      return el;
    });
    expect(within(anchor).getByText(/Model prices/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'API Configuration' }).getAttribute('aria-selected')).toBe('true');
    window.location.hash = '';
  });
});
