import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { reportAnswer, reportLost } from './connection';
import { applyToCache, RealtimeClient, socketURL } from './realtime';

/** The one socket of the app. */
export const realtime = new RealtimeClient(socketURL);

/** Connects while mounted (inside the signed-in layout) and feeds the query cache. */
export function useRealtimeConnection(symbols: string[]): void {
  const qc = useQueryClient();
  const key = symbols.join(',');
  useEffect(() => {
    const off = realtime.onMessage((m) => applyToCache(qc, m));
    // A socket that dropped is the quickest sign the server went away; one that opens, that it is back.
    const offState = realtime.onState(() => {
      if (realtime.state === 'connected') reportAnswer();
      else if (realtime.state === 'reconnecting') reportLost();
    });
    realtime.subscribe(['ticker', 'trades'], key.split(','));
    realtime.subscribe(['alerts']);
    realtime.connect();
    return () => {
      off();
      offState();
      realtime.disconnect();
      realtime.unsubscribe(['ticker', 'trades'], key.split(','));
      realtime.unsubscribe(['alerts']);
    };
  }, [qc, key]);
}

/** The socket's state and error for display. */
export function useRealtimeState() {
  const state = useSyncExternalStore(
    (l) => realtime.onState(l),
    () => realtime.state,
  );
  return { state, error: realtime.error };
}
