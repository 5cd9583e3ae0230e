/**
 * The proxy's own sign-in: a cookie scoped to its `/__agentbar/` paths and a browser key kept in
 * the `localStorage` of the proxy's origin, both derived from the agent server's token with their
 * own labels (so they open only the proxy's relay, and die with the token). The relay adds the
 * token itself when it passes the toolbar's socket on: no page of the proxy holds the token.
 */
import { createHmac } from 'node:crypto';
import { isValidToken, readCookie } from '../edge/security.ts';

/** Where the proxy answers for itself; everything else goes to the upstream. */
export const TOOLBAR_PREFIX = '/__agentbar';
export const PROXY_COOKIE = 'agentbar_proxy';
/** The browser key's name in the proxy origin's `localStorage`. */
export const PROXY_KEY_STORAGE = 'agentbar:proxy-key';

/**
 * The key the proxy's sign-in stores in the page's storage.
 *
 * @example deriveProxyKey(server.token) // 43 base64url characters
 */
export function deriveProxyKey(token: string): string {
  return createHmac('sha256', token).update('agentbar proxy key v1').digest('base64url');
}

/**
 * The `Set-Cookie` of the proxy's sign-in. HttpOnly: no script reads it; SameSite=Strict: no other
 * site makes the browser send it; its path keeps it off the app's own requests.
 *
 * @example res.setHeader('Set-Cookie', proxySessionCookie(token))
 */
export function proxySessionCookie(token: string): string {
  return `${PROXY_COOKIE}=${deriveProxyCookie(token)}; HttpOnly; SameSite=Strict; Path=${TOOLBAR_PREFIX}/`;
}

function deriveProxyCookie(token: string): string {
  return createHmac('sha256', token).update('agentbar proxy cookie v1').digest('base64url');
}

/**
 * True when a request holds both the proxy's key and its cookie. Browsers send the cookie to every
 * port of the host, so it opens nothing alone; the key alone is refused too.
 *
 * @example holdsProxyCredentials(token, url.searchParams.get('token'), req.headers.cookie)
 */
export function holdsProxyCredentials(token: string, key: string | null | undefined, cookie: string | undefined): boolean {
  const session = readCookie(cookie, PROXY_COOKIE);
  return isValidToken(key, deriveProxyKey(token)) && session !== undefined && isValidToken(session, deriveProxyCookie(token));
}
