import type { Role } from '@/lib/types';

export interface NavItem {
  label: string;
  to: string;
  children?: { label: string; to: string }[];
  /** Shown to operators only (the server refuses everyone else anyway). */
  operatorOnly?: boolean;
}

/** The navigation of spec section 2, in order. */
export const navItems: NavItem[] = [
  { label: 'Dashboard', to: '/dashboard' },
  {
    label: 'Trading',
    to: '/trading',
    children: [
      { label: 'Trading Center', to: '/trading' },
      { label: 'New Trade', to: '/trading/trade' },
      { label: 'Positions', to: '/trading/positions' },
      { label: 'Portfolio', to: '/trading/portfolio' },
      { label: 'Orders', to: '/trading/orders' },
      { label: 'Trade History', to: '/trading/history' },
    ],
  },
  {
    label: 'Strategy',
    to: '/strategy',
    children: [
      { label: 'Strategy Manager', to: '/strategy' },
      { label: 'AI Configuration', to: '/strategy/ai' },
      { label: 'Technical Analysis', to: '/strategy/technical' },
      { label: 'Performance', to: '/strategy/performance' },
      { label: 'History & Analytics', to: '/strategy/history' },
      { label: 'Backtesting', to: '/strategy/backtest' },
      { label: 'Research', to: '/strategy/research' },
    ],
  },
  { label: 'Analytics', to: '/analytics' },
  { label: 'Settings', to: '/settings' },
  { label: 'Users', to: '/users', operatorOnly: true },
];

/** The items a user with role sees. */
export function navItemsFor(role: Role | undefined): NavItem[] {
  return navItems.filter((i) => !i.operatorOnly || role === 'operator');
}

/** Whether a top-level item is highlighted for pathname ('/' counts as Dashboard). */
export function isActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/dashboard') return pathname === '/' || pathname === '/dashboard';
  return pathname === item.to || pathname.startsWith(item.to + '/');
}
