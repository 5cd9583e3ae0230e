/**
 * Text cut to a limit (a protocol field, a log line, a prompt, a terminal note), for the toolbar
 * and the server alike, never splitting a character.
 */

/**
 * Cuts `text` to at most `max` characters (UTF-16 code units, as the protocol's limits count),
 * ending with `ellipsis` when something was cut.
 *
 * @example
 * truncateText('abcdef', 4) // 'abc…'
 * truncateText('abcdef', 5, ' [+]') // 'a [+]'
 */
export function truncateText(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  if (max <= ellipsis.length) return ellipsis.slice(0, Math.max(0, max));
  // Never split a surrogate pair: a lone half would be invalid text on the wire.
  let end = max - ellipsis.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + ellipsis;
}

/** Collapses runs of whitespace to one space and trims: how element text reads on screen. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Text as one line of at most `max` characters: whitespace collapsed, then cut.
 *
 * @example truncateLine('  a\n\n b  ', 80) // 'a b'
 */
export function truncateLine(text: string, max: number): string {
  return truncateText(collapseWhitespace(text), max);
}
