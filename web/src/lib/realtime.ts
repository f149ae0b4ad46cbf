import type { QueryClient } from '@tanstack/react-query';
import { api } from './api';
import type { Ticker, Order, Fill } from './types';
import { alertKeys, marketKeys, systemKeys, tradingKeys } from './queryKeys';

/** One server frame (spec: Realtime message). */
export interface RealtimeMessage {
  type: 'market_data' | 'trade_update' | 'system_alert' | 'strategy_signal' | 'job_update' | 'orderbook';
  channel: 'ticker' | 'trades' | 'alerts' | 'signals' | 'jobs' | 'orderbook';
  data: unknown;
  timestamp: string;
}

export type RealtimeState = 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

export const RECONNECT_DELAY_MS = 5000;
export const MAX_RECONNECT_ATTEMPTS = 10;
export const MAX_ATTEMPTS_MESSAGE = 'Max reconnection attempts reached';

type Listener = (m: RealtimeMessage) => void;

interface Subscription {
  channels: string[];
  symbols: string[];
}

/**
 * The browser side of /api/ws: before every (re)connect it fetches a
 * single-use ticket (the session token never goes in a URL), reconnects
 * after 5 s up to 10 times, and re-sends every subscription after a reconnect.
 */
export class RealtimeClient {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private subs: Subscription[] = [];
  private listeners = new Set<Listener>();
  private stateListeners = new Set<() => void>();
  private stopped = false;
  private generation = 0; // bumped per attempt, so a late ticket of an abandoned one is dropped
  state: RealtimeState = 'closed';
  error: string | null = null;

  constructor(
    private readonly url: () => Promise<string>,
    private readonly makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
  ) {}

  connect(): void {
    this.stopped = false;
    this.open();
  }

  private open(): void {
    this.setState(this.attempts === 0 ? 'connecting' : 'reconnecting');
    const attempt = ++this.generation;
    this.url().then(
      (u) => {
        if (this.stopped || attempt !== this.generation) return;
        this.attach(this.makeSocket(u));
      },
      () => {
        if (this.stopped || attempt !== this.generation) return;
        this.retry();
      },
    );
  }

  private attach(ws: WebSocket): void {
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.error = null;
      this.setState('connected');
      for (const s of this.subs) this.send({ action: 'subscribe', ...s });
    };
    ws.onmessage = (ev: MessageEvent) => {
      let msg: RealtimeMessage;
      try {
        msg = JSON.parse(String(ev.data)) as RealtimeMessage;
      } catch {
        return;
      }
      for (const l of this.listeners) l(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.setState('closed');
        return;
      }
      this.retry();
    };
  }

  /** Schedules the next attempt, or gives up after the last one. */
  private retry(): void {
    if (this.attempts >= MAX_RECONNECT_ATTEMPTS) {
      this.error = MAX_ATTEMPTS_MESSAGE;
      console.error(MAX_ATTEMPTS_MESSAGE);
      this.setState('failed');
      return;
    }
    this.attempts++;
    this.setState('reconnecting');
    this.timer = setTimeout(() => this.open(), RECONNECT_DELAY_MS);
  }

  disconnect(): void {
    this.stopped = true;
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ws?.close();
    this.ws = null;
    this.attempts = 0;
    this.setState('closed');
  }

  /** Subscribes now when connected (otherwise warns) and again after every reconnect. */
  subscribe(channels: string[], symbols: string[] = []): void {
    this.subs.push({ channels, symbols });
    if (!this.connected()) {
      console.warn('Realtime not connected: subscription will be sent when the connection opens');
      return;
    }
    this.send({ action: 'subscribe', channels, symbols });
  }

  unsubscribe(channels: string[], symbols: string[] = []): void {
    this.subs = this.subs.filter((s) => !(same(s.channels, channels) && same(s.symbols, symbols)));
    if (!this.connected()) {
      console.warn('Realtime not connected: unsubscribe skipped');
      return;
    }
    this.send({ action: 'unsubscribe', channels, symbols });
  }

  onMessage(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  onState(l: () => void): () => void {
    this.stateListeners.add(l);
    return () => this.stateListeners.delete(l);
  }

  private connected(): boolean {
    return this.ws !== null && this.ws.readyState === 1;
  }

  private send(v: unknown): void {
    this.ws?.send(JSON.stringify(v));
  }

  private setState(s: RealtimeState): void {
    this.state = s;
    for (const l of this.stateListeners) l();
  }
}

function same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The socket's URL with a fresh single-use ticket (valid 30 s, bound to this session). */
export async function socketURL(): Promise<string> {
  const { ticket } = await api.post<{ ticket: string; expires_at: string }>('/ws/ticket');
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${window.location.host}/api/ws?ticket=${encodeURIComponent(ticket)}`;
}

/** Query keys realtime updates touch (re-exported for callers that refresh the same views). */
export { tradingKeys };

/** Routes frames into the query cache: tickers are written, trades and alerts refresh what they change. */
export function applyToCache(qc: QueryClient, m: RealtimeMessage): void {
  switch (m.type) {
    case 'market_data': {
      const t = m.data as Ticker;
      if (t?.symbol) qc.setQueryData(marketKeys.ticker(t.symbol), t);
      break;
    }
    case 'trade_update': {
      const u = m.data as { order: Order; fill?: Fill };
      if (!u?.order) return;
      for (const k of tradingKeys) void qc.invalidateQueries({ queryKey: [k] });
      break;
    }
    case 'system_alert':
      void qc.invalidateQueries({ queryKey: alertKeys.all });
      void qc.invalidateQueries({ queryKey: systemKeys.all });
      break;
  }
}
