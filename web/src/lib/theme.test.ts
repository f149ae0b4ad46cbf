import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, storedPreference, storedTheme } from './theme';

function prefersLight(light: boolean) {
  vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(prefers-color-scheme: light)' && light, media: q }));
}

describe('theme', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('applies auto as the system colour scheme, and keeps following it', () => {
    prefersLight(true);
    expect(applyTheme('auto')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    prefersLight(false);
    expect(storedTheme()).toBe('dark');
    // The next start applies the stored choice, still auto.
    expect(applyTheme(storedPreference())).toBe('dark');
    expect(storedPreference()).toBe('auto');
  });

  it('applies light and dark as chosen, whatever the system says', () => {
    prefersLight(true);
    expect(applyTheme('dark')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(storedTheme()).toBe('dark');
    prefersLight(false);
    expect(applyTheme('light')).toBe('light');
    expect(storedTheme()).toBe('light');
  });
});
