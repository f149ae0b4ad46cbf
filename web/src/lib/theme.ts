export type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'kestrel_theme';

export function storedTheme(): ThemeMode {
  return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

/** Applies and persists the theme ('auto' from settings is applied as dark). */
export function applyTheme(mode: ThemeMode | 'auto'): ThemeMode {
  const m: ThemeMode = mode === 'light' ? 'light' : 'dark';
  document.documentElement.classList.toggle('dark', m === 'dark');
  localStorage.setItem(THEME_KEY, m);
  return m;
}
