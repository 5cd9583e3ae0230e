/**
 * Text from another program shown on one line: whitespace runs become one space, and over `max`
 * characters it ends with an ellipsis.
 *
 * @example clipLine('Review\n  the diff', 10) // 'Review th…'
 */
export function clipLine(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
