import { reportAnswer, reportLost, GATEWAY_STATUSES } from './connection';
import { clearToken, getToken } from './token';
import { loginFor } from './returnTo';

/** Every server response: {success, data, error}. */
export interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string; fields?: Record<string, string>; [more: string]: unknown };
}

/** A failed API call, carrying the server's message and field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  readonly data: unknown;
  /** The error object as the server sent it (some routes add to it, e.g. a refused promotion's gates). */
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}, data?: unknown, body: Record<string, unknown> = {}) {
    super(message);
    this.body = body;
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.data = data;
  }
}

const TIMEOUT_MS = 30_000;

/** Called on any 401: the session is gone, so go to the login screen. */
export function onUnauthorized(): void {
  clearToken();
  const path = window.location.pathname;
  if (path !== '/login' && path !== '/register') {
    // Back here after signing in again (returnTo keeps it inside the app).
    window.location.assign(loginFor(path + window.location.search));
  }
}

/** Calls /api{path} and returns the envelope's data, or throws ApiError. */
export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'AbortError';
    reportLost();
    throw new ApiError(0, 'network', timedOut ? 'The server did not answer in time' : 'Cannot reach the server');
  } finally {
    clearTimeout(timer);
  }
  let env: Envelope<T> | null;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    env = null; // not JSON: e.g. a proxy's HTML error page
  }
  // Kestrel answers in its envelope; a gateway status without one is a proxy saying the server is down.
  if (!env && GATEWAY_STATUSES.includes(res.status)) reportLost();
  else reportAnswer();
  if (res.status === 401) onUnauthorized();
  if (!res.ok || !env || !env.success) {
    throw new ApiError(
      res.status,
      env?.error?.code ?? 'http_error',
      env?.error?.message ?? `Request failed (${res.status})`,
      env?.error?.fields ?? {},
      env?.data,
      env?.error ?? {},
    );
  }
  return env.data as T;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  del: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** The message to show for a failure: the server's when present, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
