import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { BrowserPush, browserName } from './components/BrowserPush';

type Reply = { status?: number; body: unknown };
const ok = (data: unknown): Reply => ({ body: { success: true, data } });

// The server's VAPID public key: 65 bytes (an uncompressed point) in base64url.
const keyBytes = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * 37) % 256));
const vapidKey = btoa(String.fromCharCode(...keyBytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const endpoint = 'https://push.example.com/send/abc123';

function fakeSubscription(key: Uint8Array) {
  return {
    endpoint,
    options: { applicationServerKey: key.buffer },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPbrowserkey', auth: 'authsecret' } }),
    unsubscribe: vi.fn(async () => true),
  };
}

/** A browser with Web Push: a service worker container, a PushManager and Notification, all fakes. */
function browser(opts: { permission?: NotificationPermission; answer?: NotificationPermission; subscribed?: boolean } = {}) {
  let sub: ReturnType<typeof fakeSubscription> | null = opts.subscribed ? fakeSubscription(keyBytes) : null;
  const pushManager = {
    getSubscription: vi.fn(async () => sub),
    subscribe: vi.fn(async (o: PushSubscriptionOptionsInit) => (sub = fakeSubscription(new Uint8Array(o.applicationServerKey as ArrayBuffer)))),
  };
  const reg = { pushManager };
  const sw = { register: vi.fn(async () => reg), ready: Promise.resolve(reg), getRegistration: vi.fn(async () => reg) };
  const requestPermission = vi.fn(async () => opts.answer ?? 'granted');
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'serviceWorker', { value: sw, configurable: true });
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission: opts.permission ?? 'default', requestPermission });
  return { sw, pushManager, requestPermission };
}

function serve(channels: unknown[] = []) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, '');
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ method, path, body });
      const r: Reply =
        path === '/notifications/channels' && method === 'GET'
          ? ok(channels)
          : path === '/notifications/channels'
            ? { status: 201, body: { success: true, data: { id: 'ch_9', kind: 'push', name: body.name, url: endpoint, address: '', enabled: true, secret: '' } } }
            : path === '/notifications/push/key'
              ? ok({ public_key: vapidKey })
              : path === '/settings'
                ? ok({})
                : { status: 404, body: { success: false, error: { code: 'not_found', message: 'No such API endpoint' } } };
      return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderIt() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BrowserPush />
    </QueryClientProvider>,
  );
}

beforeEach(() => setToken('test-token'));
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(window, 'isSecureContext');
});

describe('Enable browser notifications', () => {
  it('asks permission only on the click, subscribes with the server key and adds the push channel', async () => {
    const b = browser();
    const calls = serve();
    renderIt();
    const button = await screen.findByRole('button', { name: 'Enable browser notifications' });
    expect(b.requestPermission).not.toHaveBeenCalled();
    await userEvent.click(button);
    expect((await screen.findByRole('status')).textContent).toContain('Browser notifications are on');
    expect(b.requestPermission).toHaveBeenCalledTimes(1);
    expect(b.sw.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    const opts = b.pushManager.subscribe.mock.calls[0]![0];
    expect(opts.userVisibleOnly).toBe(true);
    expect(Array.from(opts.applicationServerKey as Uint8Array)).toEqual(Array.from(keyBytes));
    const created = calls.find((c) => c.method === 'POST' && c.path === '/notifications/channels');
    expect(created?.body).toEqual({
      kind: 'push',
      name: expect.any(String),
      subscription: { endpoint, keys: { p256dh: 'BPbrowserkey', auth: 'authsecret' } },
    });
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/settings')?.body).toEqual({ ui: { notifications: { push: true } } });
  });

  it('says so when the browser refuses, and subscribes to nothing', async () => {
    const b = browser({ answer: 'denied' });
    const calls = serve();
    renderIt();
    await userEvent.click(await screen.findByRole('button', { name: 'Enable browser notifications' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Notifications are blocked for this site');
    expect(b.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Enable browser notifications' })).toBeNull();
  });

  it('shows a refusal made earlier without asking again', async () => {
    const b = browser({ permission: 'denied' });
    serve();
    renderIt();
    expect((await screen.findByRole('alert')).textContent).toContain('Allow them in the browser');
    expect(b.requestPermission).not.toHaveBeenCalled();
  });

  it('says when this browser cannot receive push', async () => {
    serve();
    renderIt(); // jsdom: no service worker, no PushManager, not a secure context
    expect((await screen.findByRole('note')).textContent).toContain('cannot receive push notifications here');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a browser already subscribed as on', async () => {
    browser({ permission: 'granted', subscribed: true });
    serve([{ id: 'ch_9', owner: 'u1', kind: 'push', name: 'Chrome on Linux', url: endpoint, address: '', enabled: true, created_at: '2026-05-01T09:00:00Z' }]);
    renderIt();
    expect((await screen.findByText(/This browser receives push notifications/)).textContent).toContain('Chrome on Linux');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('browserName', () => {
  it('names the browser and system', () => {
    expect(browserName('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(browserName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari on macOS');
    expect(browserName('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Linux');
  });
});
