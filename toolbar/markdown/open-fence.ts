/**
 * The other common shape of a streaming reply's open end: a fenced code block not yet closed,
 * growing by lines of code. Appending to it cannot change how anything before it lexes, nor
 * close it, unless a line starts with a fence character; otherwise the renderer can extend the
 * block without lexing it again (which costs time in proportion to the block, on every delta).
 *
 * Only a fence at the start of its line (no indentation) whose opening line is complete: its
 * language is settled then, and its text is the rest of the block as is.
 */
import type { Token, Tokens } from 'marked';

/** A line that could close a fence, or start one: up to 3 spaces, then a backtick or a tilde. */
const FENCE_LINE = /(?:^|\n) {0,3}[`~]/;
/** The longest start of a line FENCE_LINE looks at. */
const FENCE_LINE_HEAD = 4;

/** An open fenced code block at the end of a text: its source so far, and its language. */
export interface OpenFence {
  raw: string;
  lang: string | undefined;
}

/**
 * The open fenced code block `tokens` end with, when appending code to it keeps everything before
 * it as it is; null otherwise (the last block is anything else, is indented, is closed, or holds a
 * line an append could turn into its closing fence). `source` is the text `tokens` were lexed from.
 *
 * @example openFence(lexMarkdown('Intro\n\n```ts\nconst a'), 'Intro\n\n```ts\nconst a') // { raw: '```ts\nconst a', lang: 'ts' }
 */
export function openFence(tokens: readonly Token[], source: string): OpenFence | null {
  const last = tokens[tokens.length - 1];
  if (!last || last.type !== 'code') return null;
  const code = last as Tokens.Code;
  const raw = code.raw;
  if (!raw.startsWith('```') && !raw.startsWith('~~~')) return null;
  const lineEnd = raw.indexOf('\n');
  // Until its line ends, more text changes the language, or (a backtick in it) the fence itself.
  if (lineEnd < 0) return null;
  // The lexer reads "\r\n" and a lone "\r" as "\n" (so `raw` has none): a final "\r" and an
  // appended "\n" would make one line break, not two.
  if (source.endsWith('\r')) return null;
  // Any line of the code that starts like a fence may be, or may become, the closing one.
  if (FENCE_LINE.test(raw.slice(lineEnd))) return null;
  return { raw, lang: code.lang };
}

/**
 * Whether `open.raw + more` lexes as the same open block with `more` appended to its code: `more`
 * starts no line with a fence character, the line it completes included.
 *
 * @example extendsFence({ raw: '```\nlet a', lang: '' }, ' = 1;\nlet b') // true
 * @example extendsFence({ raw: '```\nlet a\n', lang: '' }, '```') // false: it closes the block
 */
export function extendsFence(open: OpenFence, more: string): boolean {
  // See openFence: the lexer would rewrite it.
  if (more.includes('\r')) return false;
  const lineStart = open.raw.lastIndexOf('\n') + 1;
  // A last line longer than FENCE_LINE_HEAD has a start that openFence or an earlier call checked.
  const head = open.raw.length - lineStart < FENCE_LINE_HEAD ? open.raw.slice(lineStart) : 'code';
  return !FENCE_LINE.test(head + more);
}

/**
 * The token marked's lexer gives for an open fenced block (see `openFence`): its code is what
 * follows the opening line, less one final line break; an empty code, or one ending in a line
 * break, gets one back (marked's own rule for fenced code).
 *
 * @example fenceToken({ raw: '```js\nlet a;\n', lang: 'js' }).text // 'let a;'
 */
export function fenceToken(open: OpenFence): Tokens.Code {
  const body = open.raw.slice(open.raw.indexOf('\n') + 1);
  if (body === '') return { type: 'code', raw: open.raw, lang: open.lang, text: '' };
  const code = body.endsWith('\n') ? body.slice(0, -1) : body;
  return { type: 'code', raw: open.raw, lang: open.lang, text: code === '' || code.endsWith('\n') ? `${code}\n` : code };
}
