export type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'kestrel_theme';

/** The system's colour scheme (the OS or browser setting), dark where it is not known. */
function systemTheme(): ThemeMode {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

/** The theme last chosen, 'auto' included (stored as asked, resolved at each start). */
export function storedPreference(): ThemeMode | 'auto' {
  const v = localStorage.getItem(THEME_KEY);
  return v === 'auto' || v === 'light' ? v : 'dark';
}

/** The theme in effect: the stored choice, 'auto' resolved from the system's scheme. */
export function storedTheme(): ThemeMode {
  const v = storedPreference();
  return v === 'auto' ? systemTheme() : v;
}

/** Applies and persists the theme; 'auto' follows the system's colour scheme. */
export function applyTheme(mode: ThemeMode | 'auto'): ThemeMode {
  const m: ThemeMode = mode === 'auto' ? systemTheme() : mode === 'light' ? 'light' : 'dark';
  document.documentElement.classList.toggle('dark', m === 'dark');
  localStorage.setItem(THEME_KEY, mode === 'auto' ? 'auto' : m);
  return m;
}
