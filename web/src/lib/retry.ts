import { ApiError } from './api';

/**
 * Sending a trading command again after a failure that says nothing about
 * whether it ran. Orders carry a client order id generated once per
 * submission, so the server answers a repeat with the first order instead of
 * placing a second; modify (absolute values) and cancel are safe to repeat.
 */

/** Waits before each repeat: three repeats after the first attempt. */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

/** A fresh client order id for one submission of an order form (or a close). */
export function newClientOrderId(): string {
  return crypto.randomUUID();
}

/** Failures worth repeating: no answer (network error, timeout) or a gateway/unavailable status (502, 503, 504). */
export function retryable(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);
}

export interface RetryOptions {
  /** Called before each repeat with its number (1 for the first repeat) and the failure that caused it. */
  onRetry?: (repeat: number, of: number, err: ApiError) => void;
  delays?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs send, repeating it on a retryable failure after each delay. send must
 * send the same request every time (the same client order id). The last
 * failure is thrown when the repeats run out; a network failure then means
 * the outcome is unknown (see outcomeUnknown).
 */
export async function sendWithRetry<T>(send: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const delays = opts.delays ?? RETRY_DELAYS_MS;
  const sleep = opts.sleep ?? wait;
  for (let repeat = 0; ; repeat++) {
    try {
      return await send();
    } catch (err) {
      if (!retryable(err) || repeat >= delays.length) throw err;
      opts.onRetry?.(repeat + 1, delays.length, err);
      await sleep(delays[repeat]!);
    }
  }
}

/**
 * The message for an order whose every attempt failed. A 503 from Kestrel
 * means it was not executed (its message says so); no answer at all means
 * nobody knows, and the trader is told exactly that and how to find out.
 */
export function orderFailureMessage(err: unknown, clientOrderId: string, fallback: string): string {
  if (err instanceof ApiError && err.status === 0) {
    return `The server did not answer, so it is not known whether the order was placed (client order id ${clientOrderId}). Check Orders and Trade History before placing it again.`;
  }
  if (err instanceof ApiError && err.message) return err.message;
  return fallback;
}
