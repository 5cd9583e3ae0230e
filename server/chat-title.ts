/**
 * A chat's title from its first message: the words, without Markdown's marks (a title that reads
 * "## **Fix** the `header`" is noise in a chat list), at most 48 characters.
 */

/** Longest title made from a message. */
export const MAX_DERIVED_TITLE = 48;

/**
 * @example titleFromText('## **Fix** the `header` in [app](https://x.dev)') // 'Fix the header in app'
 */
export function titleFromText(text: string): string | null {
  const plain = text
    .replace(/^ {0,3}(```|~~~)[^\n]*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/^ {0,3}(#{1,6} |>+ ?|[-*+] (\[[ xX]\] )?|\d{1,9}[.)] )/gm, '')
    .replace(/(\*\*|~~)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/(^|[^\w*])\*(\S(?:.*?\S)?)\*(?!\w)/g, '$1$2')
    .replace(/(^|\W)__?(\S(?:.*?\S)?)__?(?!\w)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (!plain) return null;
  return plain.length > MAX_DERIVED_TITLE ? plain.slice(0, MAX_DERIVED_TITLE - 1).trimEnd() + '…' : plain;
}
