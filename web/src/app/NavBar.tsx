import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { AlertBell } from '@/features/alerts/AlertBell';
import { api } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { applyTheme, storedTheme, type ThemeMode } from '@/lib/theme';
import { clearToken } from '@/lib/token';
import { isActive, navItemsFor, type NavItem } from './nav';
import { StopButton } from './StopButton';
import { SystemIndicator } from './SystemIndicator';
import { VenueBadge } from './VenueBadge';

const linkBase = 'rounded px-3 py-2 text-sm font-medium';
const activeCls = 'bg-blue-600 text-white';
const idleCls = 'text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800';

function Dropdown({ item, pathname }: { item: NavItem; pathname: string }) {
  // Hover opens it for mouse users; the caret pins it open for touch and keyboard.
  const [hover, setHover] = useState(false);
  const [pinned, setPinned] = useState(false);
  const open = hover || pinned;
  const setOpen = (v: boolean) => {
    setHover(v);
    setPinned(v);
  };
  const id = `menu-${item.label.toLowerCase()}`;
  return (
    <div
      className="relative"
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setOpen(false)}
    >
      <div className="flex items-center">
        <Link to={item.to} className={`${linkBase} ${isActive(item, pathname) ? activeCls : idleCls}`}>
          {item.label}
        </Link>
        <button
          type="button"
          aria-label={`${item.label} menu`}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setPinned((p) => !p)}
          onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
          className="rounded px-1 py-2 text-xs text-slate-500 hover:bg-slate-200 dark:hover:bg-slate-800"
        >
          ▾
        </button>
      </div>
      {open && (
        <ul id={id} className="absolute left-0 top-full z-40 min-w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {item.children!.map((c) => (
            <li key={c.to}>
              <NavLink
                to={c.to}
                end
                onClick={() => setOpen(false)}
                className={({ isActive: a }) =>
                  `block px-4 py-2 text-sm ${a ? 'bg-blue-50 text-blue-700 dark:bg-slate-800 dark:text-blue-300' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`
                }
              >
                {c.label}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ThemeToggle() {
  const [mode, setMode] = useState<ThemeMode>(storedTheme);
  const next: ThemeMode = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      aria-label={`Switch to ${next} theme`}
      onClick={() => setMode(applyTheme(next))}
      className="rounded px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      {mode === 'dark' ? '☀' : '☾'}
    </button>
  );
}

function UserMenu() {
  const { data: me } = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: () => api.post('/auth/logout'),
    retry: 0,
    onSettled: () => {
      clearToken();
      qc.clear();
      navigate('/login', { replace: true });
    },
  });
  return (
    <span className="flex items-center gap-2 text-sm">
      {me && (
        <Link to="/account" title="Account and password" className="text-slate-600 hover:underline dark:text-slate-300" data-testid="current-user">
          {me.name} <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs dark:bg-slate-800">{me.role}</span>
        </Link>
      )}
      <button type="button" onClick={() => logout.mutate()} className="rounded px-2 py-1.5 text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800">
        Logout
      </button>
    </span>
  );
}

export function NavBar() {
  const { pathname } = useLocation();
  const navItems = navItemsFor(useMe().data?.role);
  const [mobileOpen, setMobileOpen] = useState(false);
  return (
    <nav className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900" aria-label="Main">
      <div className="mx-auto flex max-w-screen-2xl items-center gap-4 px-4 py-2">
        <Link to="/dashboard" className="text-lg font-bold tracking-tight text-blue-600 dark:text-blue-400">
          Kestrel
        </Link>
        <div className="hidden flex-1 items-center gap-1 md:flex">
          {navItems.map((item) =>
            item.children ? (
              <Dropdown key={item.to} item={item} pathname={pathname} />
            ) : (
              <Link key={item.to} to={item.to} className={`${linkBase} ${isActive(item, pathname) ? activeCls : idleCls}`}>
                {item.label}
              </Link>
            ),
          )}
        </div>
        <div className="ml-auto hidden items-center gap-3 md:flex">
          <VenueBadge />
          <SystemIndicator />
          <AlertBell />
          <StopButton />
          <ThemeToggle />
          <UserMenu />
        </div>
        <div className="ml-auto md:hidden">
          <AlertBell />
        </div>
        <button
          type="button"
          aria-label="Toggle menu"
          aria-expanded={mobileOpen}
          onClick={() => setMobileOpen((o) => !o)}
          className="rounded p-2 text-slate-600 hover:bg-slate-200 md:hidden dark:text-slate-300 dark:hover:bg-slate-800"
        >
          ☰
        </button>
      </div>
      {mobileOpen && (
        <div className="space-y-1 border-t border-slate-200 px-4 py-3 md:hidden dark:border-slate-800" data-testid="mobile-menu">
          {navItems.map((item) => (
            <div key={item.to}>
              <Link to={item.to} onClick={() => setMobileOpen(false)} className={`block ${linkBase} ${isActive(item, pathname) ? activeCls : idleCls}`}>
                {item.label}
              </Link>
              {item.children?.slice(1).map((c) => (
                <Link key={c.to} to={c.to} onClick={() => setMobileOpen(false)} className={`ml-4 block ${linkBase} ${pathname === c.to ? activeCls : idleCls}`}>
                  {c.label}
                </Link>
              ))}
            </div>
          ))}
          <div className="flex flex-wrap items-center gap-3 pt-2">
            <VenueBadge />
            <SystemIndicator />
            <StopButton />
            <ThemeToggle />
            <UserMenu />
          </div>
        </div>
      )}
    </nav>
  );
}
