/**
 * Text cut to a protocol limit, for the toolbar (element and page descriptions) and the server
 * (log lines, made-up tool names) alike.
 */

/**
 * Cuts `text` to at most `max` characters, ending with `…` when something was cut.
 *
 * @example
 * truncateText('abcdef', 4) // 'abc…'
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  // Never split a surrogate pair: a lone half would be invalid text on the wire.
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + '…';
}

/** Collapses runs of whitespace to one space and trims: how element text reads on screen. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
