import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { RouteErrorBoundary } from './ErrorScreen';

// Each screen is its own chunk: the first load carries the shell and the current screen only.
const screens: Record<string, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('@/features/trading/routes/Dashboard')),
  tradingCenter: lazy(() => import('@/features/trading/routes/TradingCenter')),
  newTrade: lazy(() => import('@/features/trading/routes/NewTrade')),
  history: lazy(() => import('@/features/trading/routes/TradeHistory')),
  positions: lazy(() => import('@/features/trading/routes/Positions')),
  portfolio: lazy(() => import('@/features/trading/routes/Portfolio')),
  orders: lazy(() => import('@/features/trading/routes/Orders')),
  strategy: lazy(() => import('@/features/strategy/strategies/routes/StrategyManagement')),
  strategyAI: lazy(() => import('@/features/strategy/ai/routes/AIStrategy')),
  strategyTechnical: lazy(() => import('@/features/strategy/strategies/routes/TechnicalStrategy')),
  strategyPerformance: lazy(() => import('@/features/strategy/strategies/routes/StrategyPerformance')),
  strategyHistory: lazy(() => import('@/features/strategy/strategies/routes/StrategyHistory')),
  backtest: lazy(() => import('@/features/strategy/backtest/routes/Backtest')),
  research: lazy(() => import('@/features/strategy/research/routes/Research')),
  analytics: lazy(() => import('@/features/analytics/routes/Analytics')),
  settings: lazy(() => import('@/features/settings/routes/Settings')),
  users: lazy(() => import('@/features/users/routes/Users')),
  account: lazy(() => import('@/features/users/routes/Account')),
  login: lazy(() => import('@/features/auth/routes/Login')),
  register: lazy(() => import('@/features/auth/routes/Register')),
  notFound: lazy(() => import('./NotFound')),
};

// The signed-in shell (header, alerts, realtime socket) is a chunk of its own too: the sign-in
// page does not load it, and a signed-in page fetches it alongside its screen (see preload).
const loadLayout = () => import('./Layout').then((m) => ({ default: m.Layout }));
const Layout = lazy(loadLayout);
// preload: a page other than sign-in starts fetching the shell while React starts, not after.
if (typeof window !== 'undefined' && !/^\/(login|register)$/.test(window.location.pathname)) void loadLayout();

function el(name: keyof typeof screens) {
  const Screen = screens[name]!;
  return <Screen />;
}

export const routes: RouteObject[] = [
  { path: '/login', element: <Suspense fallback={<Spinner />}>{el('login')}</Suspense> },
  { path: '/register', element: <Suspense fallback={<Spinner />}>{el('register')}</Suspense> },
  {
    element: <Suspense fallback={<Spinner />}><Layout /></Suspense>,
    children: [
      { path: '/', element: el('dashboard') },
      { path: '/dashboard', element: el('dashboard') },
      { path: '/trading', element: el('tradingCenter') },
      { path: '/trading/trade', element: el('newTrade') },
      { path: '/trading/history', element: el('history') },
      { path: '/trading/positions', element: el('positions') },
      { path: '/trading/portfolio', element: el('portfolio') },
      { path: '/trading/orders', element: el('orders') },
      { path: '/strategy', element: el('strategy') },
      { path: '/strategy/ai', element: el('strategyAI') },
      { path: '/strategy/technical', element: el('strategyTechnical') },
      { path: '/strategy/performance', element: el('strategyPerformance') },
      { path: '/strategy/history', element: el('strategyHistory') },
      { path: '/strategy/backtest', element: el('backtest') },
      { path: '/strategy/research', element: el('research') },
      { path: '/analytics', element: el('analytics') },
      { path: '/settings', element: el('settings') },
      { path: '/users', element: el('users') },
      { path: '/account', element: el('account') },
      { path: '*', element: el('notFound') },
    ],
  },
];

/**
 * The routes in declarative mode (inside a BrowserRouter): nothing here loads data, and leaving the
 * data router out keeps about 10 kB gzip out of the first load. A screen that throws shows the crash
 * screen until the next navigation, as the data router's errorElement did.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return <RouteErrorBoundary resetKey={pathname}>{useRoutes(routes)}</RouteErrorBoundary>;
}
