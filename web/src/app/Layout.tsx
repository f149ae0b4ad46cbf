import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { FillToasts } from './FillToasts';
import { SYMBOLS } from '@/features/trading/api';
import { useDisplaySync } from '@/lib/prefs';
import { useRealtimeConnection, useRealtimeState } from '@/lib/useRealtime';
import { NavBar } from './NavBar';
import { RequireAuth } from './RequireAuth';

const symbols = [...SYMBOLS];

/** Signed-in effects: the realtime socket (saying when it gave up) and the display settings. */
function Realtime() {
  useRealtimeConnection(symbols);
  useDisplaySync();
  const { state, error } = useRealtimeState();
  if (state !== 'failed') return null;
  return (
    <div role="alert" className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      Live updates stopped: {error}. Figures still refresh by polling; reload the page to reconnect.
    </div>
  );
}

export function Layout() {
  return (
    <RequireAuth>
      <div className="min-h-screen">
        <NavBar />
        <Realtime />
        <FillToasts />
        <main className="mx-auto max-w-screen-2xl px-4 py-6">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </RequireAuth>
  );
}
