/**
 * The addresses the server listens on and the ones clients dial: it binds loopback unless told
 * otherwise, and a wildcard bind is no address a client can put in a URL.
 */

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Whether binding `host` keeps the server on this machine.
 *
 * @example isLoopbackHost('::1') // true
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host);
}

/** An IPv6 address in brackets, as a URL needs it. */
function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The host clients put in URLs. Clients on this machine connect over loopback, which the Host
 * check accepts; a wildcard bind (0.0.0.0, ::) is reachable there too, and is no address to dial.
 *
 * @example connectHost('0.0.0.0') // '127.0.0.1'
 * connectHost('fe80::1') // '[fe80::1]'
 */
export function connectHost(host: string): string {
  return formatHost(host === 'localhost' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
}
