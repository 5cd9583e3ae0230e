/** Reconnect delays of the sync client: exponential growth, capped, with full jitter. */
export interface BackoffOptions {
  /** Upper bound of the first delay (attempt 0), in ms. */
  initialMs: number;
  /** No delay ever exceeds this, in ms. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 10_000 };

/**
 * Delay before reconnect number `attempt` (0-based): `random() * min(maxMs, initialMs * 2^attempt)`.
 * Full jitter spreads the reconnects of many clients after a server restart instead of having
 * them all knock at the same instant.
 *
 * @example
 * computeBackoffDelay(3, { initialMs: 250, maxMs: 10_000 }, Math.random) // somewhere in [0, 2000)
 */
export function computeBackoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, Math.floor(attempt));
  const ceiling = Math.min(options.maxMs, options.initialMs * 2 ** exponent);
  // A bad injected random() must not produce a negative, NaN or over-the-cap delay.
  const r = random();
  const jitter = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
  return Math.max(0, jitter * ceiling);
}
