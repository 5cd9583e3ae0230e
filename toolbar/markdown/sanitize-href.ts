const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * Returns a normalized href when `raw` is an absolute http(s) or mailto URL, else null: no
 * `javascript:`, `data:`, relative or protocol-relative links ever reach an `<a>`.
 *
 * @example
 * sanitizeHref('https://example.com/a b') // 'https://example.com/a%20b'
 * sanitizeHref('javascript:alert(1)')     // null
 */
export function sanitizeHref(raw: string): string | null {
  const trimmed = raw.trim();
  // Control characters and whitespace inside a URL are how scheme filters get fooled.
  if (!trimmed || /[\u0000-\u001f\u007f]/.test(trimmed)) return null;
  let url: URL;
  try {
    // A URL parser reads "\\" as "/" in http(s) addresses; in Markdown it is a character of the link.
    url = new URL(trimmed.replace(/\\/g, '%5C'));
  } catch {
    return null;
  }
  if (!SAFE_PROTOCOLS.has(url.protocol)) return null;
  if (url.protocol !== 'mailto:' && !url.hostname) return null;
  return url.href;
}
