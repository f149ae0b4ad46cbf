import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { NavBar } from './NavBar';
import { RequireAuth } from './RequireAuth';

export function Layout() {
  return (
    <RequireAuth>
      <div className="min-h-screen">
        <NavBar />
        <main className="mx-auto max-w-screen-2xl px-4 py-6">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </RequireAuth>
  );
}
