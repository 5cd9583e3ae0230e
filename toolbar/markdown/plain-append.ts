/**
 * The common shape of a streaming reply's open end: a paragraph of prose on one line, growing by
 * words. Appending prose to it cannot change how anything before it lexes, nor make it anything but
 * the same paragraph of plain text, so the renderer can extend it without lexing again (which costs
 * time in proportion to the open paragraph, on every delta).
 *
 * Prose here is letters, digits, spaces and the punctuation that starts no Markdown construct:
 * no `*_~\`[]<>&\\|#+=@/`, no line break. Of what remains, only `www.` starts one (an autolink),
 * so it must not appear in the open paragraph at all.
 */
import type { Token, Tokens } from 'marked';

const PROSE = /^[\p{L}\p{N} .,;:!?'"()-]*$/u;
/** A paragraph line that starts with a letter can only be a paragraph (no list, heading, fence). */
const PROSE_START = /^\p{L}/u;
const WWW = /www\./i;

/**
 * The open paragraph `tokens` end with, when it is plain prose on one line after a blank line
 * (or alone), and appending prose to it keeps everything before it as it is; null otherwise.
 *
 * @example openProse(lexMarkdown('# Title\n\nSome words')) // 'Some words'
 */
export function openProse(tokens: readonly Token[]): string | null {
  const last = tokens[tokens.length - 1];
  if (!last || last.type !== 'paragraph') return null;
  const paragraph = last as Tokens.Paragraph;
  const text = paragraph.raw;
  // A "www." not yet a link becomes one once its domain streams in.
  if (paragraph.text !== text || !PROSE_START.test(text) || !PROSE.test(text) || WWW.test(text)) return null;
  const inline = paragraph.tokens;
  if (inline.length !== 1 || inline[0]!.type !== 'text' || inline[0]!.raw !== text || (inline[0] as Tokens.Text).text !== text) return null;
  if ((inline[0] as Tokens.Text).tokens !== undefined) return null;
  if (tokens.length > 1) {
    // After anything but a blank line, the line could still belong to the block before it.
    const before = tokens[tokens.length - 2]!;
    if (before.type !== 'space' || (before.raw.match(/\r\n|\r|\n/g)?.length ?? 0) < 2) return null;
  }
  return text;
}

/**
 * Whether `open + more` lexes as the same paragraph with `more` appended to its text.
 *
 * @example extendsProse('Some words', ' and more.') // true
 */
export function extendsProse(open: string, more: string): boolean {
  return PROSE.test(more) && !WWW.test(open.slice(-3) + more);
}

/** The tokens marked gives for a one-line paragraph of prose (see `openProse`). */
export function proseParagraph(text: string): Tokens.Paragraph {
  return { type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text, escaped: false }] };
}
