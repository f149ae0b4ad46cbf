/**
 * Where to go after signing in. A signed-out deep link (RequireAuth, or a 401
 * mid-session) carries its path to /login; only a path inside this app is
 * followed, so a crafted link cannot send a fresh session to another site
 * (no "//host", no "\", no scheme, nothing that resolves to another origin).
 */
export const AFTER_SIGN_IN = '/dashboard';

export function returnPath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return AFTER_SIGN_IN;
  // eslint-disable-next-line no-control-regex -- control characters are how browsers are tricked into other hosts
  if (/[\u0000-\u001f\u007f]/.test(raw)) return AFTER_SIGN_IN;
  const base = 'http://app.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return AFTER_SIGN_IN;
  }
  if (url.origin !== base) return AFTER_SIGN_IN;
  if (url.pathname === '/login' || url.pathname === '/register' || url.pathname === '/') return AFTER_SIGN_IN;
  return url.pathname + url.search + url.hash;
}

/** The /login address that comes back to path after signing in. */
export function loginFor(path: string): string {
  const back = returnPath(path);
  return back === AFTER_SIGN_IN ? '/login' : `/login?next=${encodeURIComponent(back)}`;
}
