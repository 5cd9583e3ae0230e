/**
 * The checks PROTOCOL §1 puts in front of every route and before every WebSocket upgrade.
 * Pure functions of header values, so they are tested without a socket.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isLoopbackHttpOrigin, LOOPBACK_HOSTS } from '../../shared/origins.ts';
import { truncateText } from '../../shared/truncate.ts';

/**
 * Accepts `localhost`, `127.0.0.1` or `[::1]`, bare or with the server's own port. Anything else
 * (a rebinding domain, another port, no header) is refused.
 *
 * @example isAllowedHost('127.0.0.1:4477', 4477) // true
 */
export function isAllowedHost(host: string | undefined | null, port: number): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!m) return false;
  if (!LOOPBACK_HOSTS.has(m[1]!)) return false;
  return m[2] === undefined || Number(m[2]) === port;
}

/** Normalizes an origin for comparison: lower-case scheme and host, no trailing slash. */
export function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.origin === 'null') return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * An absent Origin (non-browser client) passes; `null` never does; loopback `http:` origins on any
 * port pass; so does each extra origin given with `--allow-origin`.
 *
 * @example isAllowedOrigin('http://localhost:5173', []) // true
 */
export function isAllowedOrigin(origin: string | undefined | null, extra: readonly string[]): boolean {
  if (origin === undefined || origin === null) return true;
  if (origin.trim().toLowerCase() === 'null') return false;
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  if (isLoopbackHttpOrigin(normalized)) return true;
  return extra.some((o) => normalizeOrigin(o) === normalized);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time token comparison; hashing first makes the lengths equal. */
export function isValidToken(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an HTTP request: `?token=` or `Authorization: Bearer …`. */
export function readToken(url: URL, authorization: string | undefined | null): string | undefined {
  const q = url.searchParams.get('token');
  if (q) return q;
  const m = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null;
  return m?.[1];
}

/** The cookie the server sets once a request proved it holds the token (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'agentbar_session';

/**
 * The session cookie's value: derived from the token, so it stays valid across restarts with the
 * same token and dies with a new one. Browsers send it to every port of the host, so alone it opens
 * nothing but the demo page, which holds no credential.
 */
export function deriveSessionValue(token: string): string {
  return createHmac('sha256', token).update('agentbar session cookie v1').digest('base64url');
}

/**
 * The demo page's credential: handed out only with the sign-in (to a request holding a one-time
 * code or the token), kept by the browser in the storage of the server's own origin, which no
 * other port's page can read, and accepted only together with the session cookie. Derived from the
 * token like the cookie, so it lives and dies with it.
 *
 * @example isValidToken(given, deriveBrowserKey(policy.token))
 */
export function deriveBrowserKey(token: string): string {
  return createHmac('sha256', token).update('agentbar browser key v1').digest('base64url');
}

/** The value of the session cookie in a `Cookie` header, if any. */
export function readSessionCookie(cookie: string | undefined | null): string | undefined {
  return readCookie(cookie, SESSION_COOKIE);
}

/**
 * The value of the cookie `name` in a `Cookie` header, if any.
 *
 * @example readCookie('theme=dark; agentbar_proxy=abc', 'agentbar_proxy') // 'abc'
 */
export function readCookie(cookie: string | undefined | null, name: string): string | undefined {
  if (!cookie) return undefined;
  for (const pair of cookie.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

export interface AccessPolicy {
  port: () => number;
  token: string;
  allowOrigins: readonly string[];
}

/** Why a request is refused, or null when it may go on. `needsToken` is false for public routes. */
export function checkAccess(
  policy: AccessPolicy,
  headers: { host?: string | null; origin?: string | null; authorization?: string | null; cookie?: string | null },
  url: URL,
  needsToken: boolean,
): string | null {
  if (!isAllowedHost(headers.host, policy.port())) return 'Host not allowed';
  if (!isAllowedOrigin(headers.origin, policy.allowOrigins)) return 'Origin not allowed';
  if (needsToken && !hasCredentials(policy, headers, url)) return 'Missing or wrong token';
  return null;
}

/**
 * The log line for a refused WebSocket: the reason `checkAccess` gave, what was refused, and what
 * the developer can do about it (the browser tells the page nothing, so this line is all they get).
 *
 * @example describeRefusal('Origin not allowed', { origin: 'https://localhost:5173' })
 * // 'Origin not allowed (origin https://localhost:5173). If that page is yours, start the server with --allow-origin https://localhost:5173 …'
 */
export function describeRefusal(why: string, headers: { origin?: string | null; host?: string | null }): string {
  const clip = (value: string) => truncateText(value, 200);
  const origin = headers.origin == null ? 'none' : clip(headers.origin);
  if (why === 'Host not allowed') {
    return `${why} (host ${headers.host == null ? 'none' : clip(headers.host)}). Open the page with localhost, 127.0.0.1 or [::1] and the server's port: other names are refused so that no website can reach the server through DNS rebinding.`;
  }
  if (why === 'Origin not allowed') {
    const normalized = headers.origin == null ? null : normalizeOrigin(headers.origin);
    if (!normalized) return `${why} (origin ${origin}). A page without an origin of its own (a file:// page, a sandboxed frame) is never allowed: serve it over http from localhost.`;
    return `${why} (origin ${origin}). If that page is yours, start the server with --allow-origin ${clip(normalized)} (allowOrigins in startServer).`;
  }
  return `${why} (origin ${origin}). A toolbar with an old token gets the current one when its page is reloaded.`;
}

/**
 * True when the request gives the token itself (`?token=`, Bearer), not the browser key.
 *
 * @example holdsToken(policy, new URL(c.req.url), c.req.header('authorization'))
 */
export function holdsToken(policy: AccessPolicy, url: URL, authorization: string | undefined | null): boolean {
  return isValidToken(readToken(url, authorization), policy.token);
}

/**
 * True when the `Cookie` header holds the session cookie of this token.
 *
 * @example hasSessionCookie(policy, 'theme=dark; agentbar_session=…')
 */
export function hasSessionCookie(policy: AccessPolicy, cookie: string | undefined | null): boolean {
  const session = readSessionCookie(cookie);
  return session !== undefined && isValidToken(session, deriveSessionValue(policy.token));
}

/**
 * The token (`?token=`, Bearer), or the browser key in its place together with the session cookie:
 * neither the key nor the cookie alone.
 */
function hasCredentials(policy: AccessPolicy, headers: { authorization?: string | null; cookie?: string | null }, url: URL): boolean {
  if (holdsToken(policy, url, headers.authorization)) return true;
  return isValidToken(readToken(url, headers.authorization), deriveBrowserKey(policy.token)) && hasSessionCookie(policy, headers.cookie);
}
