import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { FillToasts } from './FillToasts';
import { useDisplaySync } from '@/lib/prefs';
import { useSymbols } from '@/lib/products';
import { useRealtimeConnection, useRealtimeState } from '@/lib/useRealtime';
import { NavBar } from './NavBar';
import { RequireAuth } from './RequireAuth';

/** The realtime socket, saying when it gave up. */
function Realtime() {
  useRealtimeConnection(useSymbols().symbols);
  const { state, error } = useRealtimeState();
  if (state !== 'failed') return null;
  return (
    <div role="alert" className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      Live updates stopped: {error}. Figures still refresh by polling; reload the page to reconnect.
    </div>
  );
}

/**
 * The signed-in page. Screens are drawn once the display settings are known:
 * the formatter reads them when a screen renders, and a screen drawn before
 * they arrived would keep the default formats beside figures drawn after.
 */
function SignedIn() {
  const displayReady = useDisplaySync();
  return (
    <div className="min-h-screen">
      <NavBar />
      <Realtime />
      <FillToasts />
      <main className="mx-auto max-w-screen-2xl px-4 py-6">
        {displayReady ? (
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        ) : (
          <Spinner />
        )}
      </main>
    </div>
  );
}

export function Layout() {
  return (
    <RequireAuth>
      <SignedIn />
    </RequireAuth>
  );
}
