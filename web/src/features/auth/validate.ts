export type Errors = Record<string, string>;

/** Mirrors the server's account rules for quick feedback. */
export function validateCredentials(v: { email: string; password: string; name?: string }, registering: boolean): Errors {
  const e: Errors = {};
  if (registering && !v.name?.trim()) e.name = 'Name is required';
  if (!v.email.trim()) e.email = 'Email is required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) e.email = 'Enter a valid email address';
  if (registering && v.password.length < 8) e.password = 'Password must be at least 8 characters';
  if (!registering && !v.password) e.password = 'Password is required';
  return e;
}
