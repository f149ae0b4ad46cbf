// The bearer token lives in session storage: a reload keeps the session,
// but it is gone when the tab or browser closes, is not shared with other
// tabs, and is not left on disk for the next user of the machine (see
// docs/SECURITY.md). Each new tab signs in.
const TOKEN_KEY = 'kestrel_token';

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  localStorage.removeItem(TOKEN_KEY); // a token an earlier version kept on disk
}

export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(TOKEN_KEY);
}
