/**
 * Request URLs as the page tools report them: absolute, without the credentials, tokens and keys
 * they may carry. Part of the page capture, so a secret never even sits in its buffers.
 */
import { truncateText } from '../../shared/truncate.ts';

/** Query parameter names that carry secrets (`access_token`, `api_key`, `X-Amz-Signature`, …). */
const SECRET_NAME = /token|secret|passw|pwd|auth|api[-_]?key|apikey|signature|credential|session|jwt|bearer|otp|^(key|sig|sid|code)$/i;
/** Values that look like a secret whatever their name: a JWT, or a long run of random-looking characters. */
const JWT = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;
const OPAQUE = /^[A-Za-z0-9_\-.~+/=]{32,}$/;
export const REDACTED = '[redacted]';

function looksSecret(value: string): boolean {
  return JWT.test(value) || (OPAQUE.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactQuery(search: string): string {
  if (search.length <= 1) return search;
  const pairs = search.slice(1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return looksSecret(decode(pair)) ? REDACTED : pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    return SECRET_NAME.test(decode(name)) || looksSecret(decode(value)) ? `${name}=${REDACTED}` : pair;
  });
  return `?${pairs.join('&')}`;
}

/**
 * `url` made absolute against `base` and safe to show: user and password removed, the value of
 * each secret-looking query parameter (and any secret-looking path segment) replaced with
 * `[redacted]`, the fragment dropped (it never leaves the browser), cut to `max` characters.
 * A URL that does not parse keeps only what comes before its query.
 *
 * @example
 * redactUrl('/api?q=shoes&access_token=abc', 'http://localhost:5173/', 200)
 * // 'http://localhost:5173/api?q=shoes&access_token=[redacted]'
 */
export function redactUrl(url: string, base: string | undefined, max: number): string {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    const cut = url.search(/[?#]/);
    return truncateText(cut < 0 ? url : url.slice(0, cut) + (url[cut] === '?' ? `?${REDACTED}` : ''), max);
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return truncateText(`${parsed.protocol}…`, max);
  parsed.username = '';
  parsed.password = '';
  const path = parsed.pathname
    .split('/')
    .map((segment) => (looksSecret(decode(segment)) ? REDACTED : segment))
    .join('/');
  return truncateText(`${parsed.protocol}//${parsed.host}${path}${redactQuery(parsed.search)}`, max);
}
