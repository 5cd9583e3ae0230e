/**
 * Rewrites what ties a response to the upstream's own address, so the browser stays on the proxy:
 * redirects to the upstream's origin, and cookies scoped to the upstream's domain.
 */

/**
 * A `Location` pointing at the upstream's origin, pointed at the proxy's instead. Relative
 * locations and other sites are left as they are.
 *
 * @example rewriteLocation('http://localhost:3000/login?next=%2F', 'http://localhost:3000', 'http://127.0.0.1:4478')
 * // 'http://127.0.0.1:4478/login?next=%2F'
 */
export function rewriteLocation(location: string, upstreamOrigin: string, proxyOrigin: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location;
  }
  if (url.origin !== upstreamOrigin) return location;
  return `${proxyOrigin}${url.pathname}${url.search}${url.hash}`;
}

/**
 * A `Set-Cookie` without its `Domain` attribute, so the browser keeps it for the proxy's host
 * (a host-only cookie), whatever domain the upstream named.
 *
 * @example rewriteSetCookie('sid=1; Domain=localhost; Path=/; HttpOnly') // 'sid=1; Path=/; HttpOnly'
 */
export function rewriteSetCookie(cookie: string): string {
  return cookie
    .split(';')
    .filter((part, i) => i === 0 || !/^\s*domain\s*=/i.test(part))
    .join(';');
}
