import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '@/lib/api';

export interface Flash {
  kind: 'success' | 'error';
  text: string;
}

/** A success or failure message that clears after 5 seconds (spec section 4). */
export function useFlash() {
  const [flash, setFlash] = useState<Flash | null>(null);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), 5000);
    return () => clearTimeout(t);
  }, [flash]);
  const ok = useCallback((text: string) => setFlash({ kind: 'success', text }), []);
  /** The spec's message, followed by the server's reason when there is one. */
  const fail = useCallback((text: string, err?: unknown) => {
    const why = err === undefined ? '' : errorMessage(err, '');
    setFlash({ kind: 'error', text: why && why !== text ? `${text}: ${why}` : text });
  }, []);
  return { flash, ok, fail, clear: () => setFlash(null) };
}

export function FlashBanner({ flash }: { flash: Flash | null }) {
  if (!flash) return null;
  const cls =
    flash.kind === 'success'
      ? 'border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
      : 'border-red-300 bg-red-50 text-red-700 dark:border-red-800 dark:bg-red-950 dark:text-red-300';
  return (
    <div role={flash.kind === 'success' ? 'status' : 'alert'} className={`mb-4 rounded border p-3 text-sm ${cls}`}>
      {flash.text}
    </div>
  );
}
