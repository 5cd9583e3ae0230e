/**
 * The pages the agent server accepts without `--allow-origin` (PROTOCOL §1), in one place: the
 * server checks against it, and the toolbar uses it to say which fix applies when it is refused.
 */

/** Host names that always mean this machine. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether `origin` is a plain-http page on this machine, on any port: those are accepted by default.
 *
 * @example isLoopbackHttpOrigin('http://localhost:5173') // true
 * @example isLoopbackHttpOrigin('https://localhost:5173') // false: needs --allow-origin
 */
export function isLoopbackHttpOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}
