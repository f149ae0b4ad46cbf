import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { Notifications } from './components/Notifications';

type Reply = { status?: number; body: unknown };
const ok = (data: unknown): Reply => ({ body: { success: true, data } });

const hook = { id: 'ch_1', owner: 'u1', kind: 'webhook', name: 'Desk', url: 'https://example.com/h', address: '', enabled: true, created_at: '2026-05-01T09:00:00Z' };
const routing = { routes: {}, min_severity: 'low', aggregate: true, aggregate_seconds: 5, event_types: ['order.filled', 'trading.emergency_stop'] };
const failed = {
  id: 'msg_1', owner: 'u1', channel: 'ch_1', type: 'order.filled', severity: 'medium', data: {}, count: 3, status: 'pending', attempts: 2,
  last_error: 'receiver answered HTTP 503', created_at: '2026-05-01T09:01:00Z', next_attempt_at: '2026-05-01T09:02:00Z',
};

const trader = { id: 'u1', email: 't@example.com', name: 'Tess', role: 'trader', created_at: '2026-05-01T09:00:00Z', last_login: null, disabled: false };

function serve(handle: (method: string, path: string, body: unknown) => Reply | undefined = () => undefined, me: object = trader) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, '');
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ method, path, body });
      const r =
        handle(method, path, body) ??
        (path === '/auth/me'
          ? ok(me)
          : path === '/notifications/channels'
          ? ok([hook])
          : path === '/notifications/routing'
            ? ok(routing)
            : path.startsWith('/notifications/deliveries')
              ? ok([failed])
              : { status: 404, body: { success: false, error: { code: 'not_found', message: 'No such API endpoint' } } });
      return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderIt() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Notifications />
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('test-token'));
afterEach(() => vi.unstubAllGlobals());

describe('Account notifications', () => {
  it('adds a webhook and shows its secret once; a bad URL shows the field error', async () => {
    let first = true;
    const calls = serve((method, path) => {
      if (method !== 'POST' || path !== '/notifications/channels') return undefined;
      if (first) {
        first = false;
        return { status: 400, body: { success: false, error: { code: 'invalid', message: 'Check the highlighted fields', fields: { url: 'Use an https:// URL' } } } };
      }
      return { status: 201, body: { success: true, data: { ...hook, id: 'ch_2', secret: 'whsec_abc' } } };
    });
    renderIt();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Desk 2');
    await user.type(screen.getByLabelText('Webhook URL'), 'ftp://x');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('Use an https:// URL')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('whsec_abc')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { kind: 'webhook', name: 'Desk 2', url: 'ftp://x' },
      { kind: 'webhook', name: 'Desk 2', url: 'ftp://x' },
    ]);
  });

  it('adds a Telegram channel with its chat id and bot token; field errors show under their fields', async () => {
    let first = true;
    const calls = serve((method, path) => {
      if (method !== 'POST' || path !== '/notifications/channels') return undefined;
      if (first) {
        first = false;
        return { status: 400, body: { success: false, error: { code: 'invalid', message: 'Check the highlighted fields', fields: { bot_token: 'Enter the bot token BotFather gave you' } } } };
      }
      return { status: 201, body: { success: true, data: { ...hook, id: 'ch_3', kind: 'telegram', url: '', address: '-100123', secret: '' } } };
    });
    renderIt();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Kind'), 'telegram');
    await user.type(screen.getByLabelText('Name'), 'Phone');
    await user.type(screen.getByLabelText('Chat id'), '-100123');
    await user.click(screen.getByRole('button', { name: 'Add Telegram' }));
    expect(await screen.findByText('Enter the bot token BotFather gave you')).toBeTruthy();
    await user.type(screen.getByLabelText('Bot token (from BotFather)'), '123456:abc');
    await user.click(screen.getByRole('button', { name: 'Add Telegram' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { kind: 'telegram', name: 'Phone', address: '-100123', bot_token: '' },
      { kind: 'telegram', name: 'Phone', address: '-100123', bot_token: '123456:abc' },
    ]);
    expect(screen.queryByText(/Signing secret/)).toBeNull();
  });

  it('adds an email channel with its address', async () => {
    const calls = serve((method, path) =>
      method === 'POST' && path === '/notifications/channels' ? { status: 201, body: { success: true, data: { ...hook, id: 'ch_4', kind: 'email', url: '', address: 'me@example.com', secret: '' } } } : undefined,
    );
    renderIt();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Kind'), 'email');
    await user.type(screen.getByLabelText('Name'), 'Inbox');
    await user.type(screen.getByLabelText('Email address'), 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ kind: 'email', name: 'Inbox', address: 'me@example.com' }]));
  });

  it('sends a test and says what the receiver did', async () => {
    serve((method, path) => (method === 'POST' && path === '/notifications/channels/ch_1/test' ? ok({ ...failed, type: 'notification.test', status: 'failed', attempts: 1 }) : undefined));
    renderIt();
    await userEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test to Desk failed: receiver answered HTTP 503')).toBeTruthy();
  });

  it('routes an event type to a channel and saves it', async () => {
    const calls = serve((method, path, body) => (method === 'PUT' && path === '/notifications/routing' ? ok({ ...(body as object), event_types: routing.event_types }) : undefined));
    renderIt();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'order.filled to Desk' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save routing' }));
    expect(await screen.findByText('Routing saved.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      routes: { 'order.filled': ['ch_1'] },
      min_severity: 'low',
      aggregate: true,
      aggregate_seconds: 5,
      quiet_from: '',
      quiet_to: '',
      quiet_timezone: '',
    });
  });

  it('saves quiet hours with their time zone', async () => {
    const calls = serve((method, path, body) => (method === 'PUT' && path === '/notifications/routing' ? ok({ ...(body as object), event_types: routing.event_types }) : undefined));
    renderIt();
    const user = userEvent.setup();
    const from = await screen.findByLabelText('Quiet hours from');
    await user.type(from, '22:00');
    await user.type(screen.getByLabelText('Quiet hours to'), '07:00');
    await user.type(screen.getByLabelText('Quiet hours time zone'), 'Europe/Berlin');
    await user.click(screen.getByRole('button', { name: 'Save routing' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ quiet_from: '22:00', quiet_to: '07:00', quiet_timezone: 'Europe/Berlin' }));
  });

  it('shows the delivery log with channel, status, attempts and last error', async () => {
    serve();
    renderIt();
    const log = await screen.findByRole('region', { name: 'Delivery log' });
    const row = (await within(log).findByText('receiver answered HTTP 503')).closest('tr')!;
    expect(within(row).getByText('Desk')).toBeTruthy();
    expect(within(row).getByText('pending')).toBeTruthy();
    expect(within(row).getByText('2')).toBeTruthy();
    expect(row.textContent).toContain('order.filled ×3');
  });

  it("lets an operator see every user's failures", async () => {
    const other = { ...failed, id: 'msg_2', owner: 'u2', channel: 'ch_9', status: 'failed', last_error: 'receiver answered HTTP 500' };
    const calls = serve((_m, path) => (path.includes('scope=all') ? ok([other]) : undefined), { ...trader, id: 'op', role: 'operator' });
    renderIt();
    await userEvent.click(await screen.findByRole('checkbox', { name: "Every user's failures" }));
    const row = (await screen.findByText('receiver answered HTTP 500')).closest('tr')!;
    expect(within(row).getByText("ch_9 (another user's)")).toBeTruthy();
    expect(calls.some((c) => c.path === '/notifications/deliveries?limit=50&scope=all&status=failed')).toBe(true);
  });

  it('offers a trader no view of other users', async () => {
    serve();
    renderIt();
    await screen.findByText('receiver answered HTTP 503');
    expect(screen.queryByRole('checkbox', { name: "Every user's failures" })).toBeNull();
  });
});
