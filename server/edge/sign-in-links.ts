/**
 * One-time sign-in codes for the demo page: `agentbar serve` prints an address holding one, so the
 * token itself never reaches the terminal and no page holding the token is served to a request
 * that proved nothing. A code opens the page once, within a few minutes.
 */
import { randomBytes } from 'node:crypto';

export const SIGN_IN_TTL_MS = 5 * 60_000;
/** Unused codes kept at once; issuing more forgets the oldest, so memory stays bounded. */
export const MAX_SIGN_IN_CODES = 16;

export interface SignInLinks {
  /** A new code, valid once until `ttlMs` from now. */
  issue(): { code: string; expiresAt: number };
  /** True once for a live code; the code is gone afterwards, whatever the answer. */
  redeem(code: string): boolean;
  /** Whether the code would open the page now, without using it up (a HEAD request asks this). */
  isLive(code: string): boolean;
}

/**
 * @example
 * const links = createSignInLinks();
 * const { code } = links.issue();
 * links.isLive(code); // true, and still unused
 * links.redeem(code); // true
 * links.redeem(code); // false: used
 */
export function createSignInLinks(options: { ttlMs?: number; max?: number; now?: () => number } = {}): SignInLinks {
  const ttlMs = options.ttlMs ?? SIGN_IN_TTL_MS;
  const max = options.max ?? MAX_SIGN_IN_CODES;
  const now = options.now ?? Date.now;
  // Insertion order is issue order, so the first key is the oldest.
  const codes = new Map<string, number>();
  return {
    issue() {
      for (const [code, expiresAt] of codes) if (expiresAt <= now()) codes.delete(code);
      while (codes.size >= max) codes.delete(codes.keys().next().value!);
      const code = randomBytes(24).toString('base64url');
      const expiresAt = now() + ttlMs;
      codes.set(code, expiresAt);
      return { code, expiresAt };
    },
    redeem(code) {
      const expiresAt = codes.get(code);
      if (expiresAt === undefined) return false;
      codes.delete(code);
      return expiresAt > now();
    },
    isLive(code) {
      return (codes.get(code) ?? -Infinity) > now();
    },
  };
}
