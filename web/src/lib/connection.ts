import { useSyncExternalStore } from 'react';

/**
 * Whether the server is answering, from every API call and the realtime
 * socket: status indicators read it so that none of them goes on showing a
 * last known "healthy" while nothing answers.
 */
let lostAt: number | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** The server answered (any HTTP response of its own, or the socket opened). */
export function reportAnswer(): void {
  if (lostAt === null) return;
  lostAt = null;
  emit();
}

/** The server did not answer (a network error, a gateway's 502/503/504, or the socket dropped). */
export function reportLost(now: number = Date.now()): void {
  if (lostAt !== null) return;
  lostAt = now;
  emit();
}

/** When the server stopped answering (ms since the epoch), or null while it answers. */
export function connectionLostAt(): number | null {
  return lostAt;
}

/** Calls l whenever the server stops or starts answering again. */
export function onConnection(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

const subscribe = onConnection;

/**
 * Once the server answers again, a realtime socket that gave up reconnecting (during a long outage) connects
 * again, so live updates recover with the server instead of waiting for a reload.
 */
export function reconnectIfGaveUp(client: { state: string; connect: () => void }): void {
  if (lostAt === null && client.state === 'failed') client.connect();
}

/** When the server stopped answering, or null while it answers; re-renders on change. */
export function useConnectionLost(): number | null {
  return useSyncExternalStore(subscribe, connectionLostAt, connectionLostAt);
}

/** Gateway statuses a proxy answers with when the server behind it is down. */
export const GATEWAY_STATUSES: readonly number[] = [502, 503, 504];
