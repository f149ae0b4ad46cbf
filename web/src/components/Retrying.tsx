import { useCallback, useState } from 'react';
import type { ApiError } from '@/lib/api';

/** What a retried command shows while it repeats: which repeat, and why. */
export function useRetrying() {
  const [state, setState] = useState<{ repeat: number; of: number; why: string } | null>(null);
  const onRetry = useCallback((repeat: number, of: number, err: ApiError) => {
    setState({ repeat, of, why: err.status === 0 ? 'no answer from the server' : `the server answered ${err.status}` });
  }, []);
  const clear = useCallback(() => setState(null), []);
  return { retrying: state, onRetry, clear };
}

/** The visible "retrying" state of an order, close, modify or cancel. */
export function RetryingNote({ retrying, what }: { retrying: { repeat: number; of: number; why: string } | null; what: string }) {
  if (!retrying) return null;
  return (
    <p role="status" data-testid="retrying" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
      Retrying ({retrying.repeat} of {retrying.of}): {retrying.why}; sending the same {what} again.
    </p>
  );
}
