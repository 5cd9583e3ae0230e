/**
 * The one clock every bench timestamp uses: `process.hrtime` reads CLOCK_MONOTONIC, which Linux
 * shares across processes, so a time taken in the server child and one taken in the parent can be
 * subtracted directly.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Resolves after `ms` (setTimeout; the bench never needs better than 1 ms here). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
