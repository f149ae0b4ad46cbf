import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { api, errorMessage } from '@/lib/api';

/** What the server's emergency stop does (POST /trading/stop), in the words the trader confirms. */
export const STOP_CONFIRM =
  'Emergency stop: halt automated trading, refuse new orders that add exposure and cancel resting orders that add exposure. Protective stop-loss sells stay armed, and you can still sell to reduce a position. Continue?';

/** The red emergency-stop button: confirm in a dialog, then POST /trading/stop. */
export function StopButton() {
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const stop = useMutation({
    mutationFn: () => api.post<{ trading_halted: boolean; cancelled_orders: number }>('/trading/stop'),
    retry: 0,
    onSuccess: () => {
      setError(null);
      void qc.invalidateQueries();
    },
    onError: (err) => {
      setError(errorMessage(err, 'Emergency stop failed'));
      setTimeout(() => setError(null), 5000);
    },
  });
  return (
    <span className="relative">
      <button
        type="button"
        onClick={() => setAsking(true)}
        disabled={stop.isPending}
        className="rounded bg-red-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
      >
        {stop.isPending ? 'Stopping...' : 'Stop'}
      </button>
      {asking && (
        <ConfirmDialog
          title="Emergency Stop"
          message={STOP_CONFIRM}
          confirmLabel="Stop trading"
          danger
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            stop.mutate();
          }}
        />
      )}
      {error && (
        <span role="alert" className="absolute right-0 top-10 z-50 w-64 rounded border border-red-300 bg-red-50 p-2 text-xs text-red-700 shadow dark:border-red-800 dark:bg-red-950 dark:text-red-300">
          {error}
        </span>
      )}
    </span>
  );
}
