/**
 * A chat's title from its first message: the words, without Markdown's marks (a title that reads
 * "## **Fix** the `header`" is noise in a chat list), at most 48 characters.
 */

import { truncateText } from '../../shared/truncate.ts';

/** Longest title made from a message. */
export const MAX_DERIVED_TITLE = 48;

/**
 * Only the message's start is read: the title needs 48 characters of words, and the mark-removing
 * patterns below are quadratic on long runs of marks (a 40 KB first message of `**a ` took 0.8 s,
 * a 1 MB one would stall the server for minutes).
 */
const READ_AT_MOST = 2_000;

/**
 * The words of `text` as a title of at most `max` characters (an agent's own title may be longer
 * than one made from a message: up to the protocol's limit).
 *
 * @example titleFromText('## **Fix** the `header` in [app](https://x.dev)') // 'Fix the header in app'
 */
export function titleFromText(text: string, max: number = MAX_DERIVED_TITLE): string | null {
  const plain = truncateText(text, READ_AT_MOST, '')
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
  return plain.length > max ? truncateText(plain, max - 1, '').trimEnd() + '…' : plain;
}

/** A message that only calls a command (`/think`, `/compact`): it says what to do, not what the chat is about. */
const BARE_COMMAND = /^\s*\/[\w.:-]+\s*$/;

/**
 * The title a user's message gives a chat that has none yet: its words, or null for a message
 * without words or one that only calls a command (the next message names the chat then).
 *
 * @example titleFromMessageText('/think') // null
 */
export function titleFromMessageText(text: string): string | null {
  return BARE_COMMAND.test(text) ? null : titleFromText(text);
}
