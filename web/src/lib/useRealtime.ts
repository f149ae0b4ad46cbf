import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { onConnection, reconnectIfGaveUp, reportAnswer, reportLost } from './connection';
import { applyToCache, RealtimeClient, socketURL } from './realtime';

/** The one socket of the app. */
export const realtime = new RealtimeClient(socketURL);

/**
 * Connects while mounted (inside the signed-in layout) and feeds the query cache.
 * The symbols' tickers and trades are subscribed apart, so the socket opens
 * without waiting for the list of symbols, and a new list does not reconnect.
 */
export function useRealtimeConnection(symbols: string[]): void {
  const qc = useQueryClient();
  const key = symbols.join(',');
  useEffect(() => {
    const off = realtime.onMessage((m) => applyToCache(qc, m));
    // A socket that dropped is the quickest sign the server went away; one that opens, that it is back.
    // Only a drop counts as lost: a reconnect attempt after giving up is not news about the server.
    let prev = realtime.state;
    const offState = realtime.onState(() => {
      if (realtime.state === 'connected') reportAnswer();
      else if (realtime.state === 'reconnecting' && prev === 'connected') reportLost();
      prev = realtime.state;
    });
    realtime.subscribe(['alerts']);
    const offConnection = onConnection(() => reconnectIfGaveUp(realtime));
    realtime.connect();
    return () => {
      off();
      offState();
      offConnection();
      realtime.disconnect();
      realtime.unsubscribe(['alerts']);
    };
  }, [qc]);
  useEffect(() => {
    if (key === '') return;
    realtime.subscribe(['ticker', 'trades'], key.split(','));
    return () => realtime.unsubscribe(['ticker', 'trades'], key.split(','));
  }, [key]);
}

/** The socket's state and error for display. */
export function useRealtimeState() {
  const state = useSyncExternalStore(
    (l) => realtime.onState(l),
    () => realtime.state,
  );
  return { state, error: realtime.error };
}
