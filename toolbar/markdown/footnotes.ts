/**
 * GitHub footnotes for marked's lexer: `[^label]` in text is a reference, and a block starting
 * `[^label]: ` is its definition (its following lines belong to it when indented, or when they
 * simply go on without a blank line). Agents write them at the end of a reply, so the toolbar
 * shows a definition where it is written, and numbers references in the order they first appear.
 *
 * A reference is one even before (or without) its definition: a streaming reply's earlier
 * paragraphs are rendered once, before the definitions at its end have arrived.
 */
import type { Token, TokenizerExtension, Tokens } from 'marked';

export interface FootnoteRefToken extends Tokens.Generic {
  type: 'footnoteRef';
  raw: string;
  /** Normalized (lower case), as labels match case-insensitively. */
  label: string;
}

export interface FootnoteToken extends Tokens.Generic {
  type: 'footnote';
  raw: string;
  label: string;
  tokens: Token[];
}

const LABEL = String.raw`\[\^([^\]\s]{1,100})\]`;
const REF = new RegExp(`^${LABEL}`);
const DEF_START = new RegExp(`^ {0,3}${LABEL}:[ \\t]*`);

/** Lowercase, so `[^Note]` and `[^note]` are one footnote (as on GitHub). */
export function normalizeLabel(label: string): string {
  return label.toLowerCase();
}

/** Where the line starting at `from` ends, its line break included. */
function lineEnd(src: string, from: number): number {
  const at = src.indexOf('\n', from);
  return at < 0 ? src.length : at + 1;
}

/**
 * Takes the lines of a definition: its first line, then indented lines (after blank lines too) and
 * lazy lines. Reads only as far as the definition goes (and one line more): the lexer calls this at
 * every block, so reading the rest of the text each time would be quadratic.
 */
function takeDefinition(src: string): { raw: string; body: string } | null {
  const start = DEF_START.exec(src);
  if (!start) return null;
  let taken = lineEnd(src, 0);
  const body = [src.slice(start[0].length, taken)];
  let blanks = 0;
  for (let pos = taken; pos < src.length; ) {
    const next = lineEnd(src, pos);
    const line = src.slice(pos, next);
    pos = next;
    if (line.trim() === '') {
      blanks++;
      continue;
    }
    const indented = /^( {4}|\t)/.test(line);
    if (blanks > 0 && !indented) break;
    // A lazy line goes on the paragraph, unless it starts another definition.
    if (!indented && DEF_START.test(line)) break;
    for (; blanks > 0; blanks--) body.push('\n');
    body.push(indented ? line.replace(/^( {4}|\t)/, '') : line);
    taken = next;
  }
  // The line break after the last line is left to the lexer's space token, as for a paragraph,
  // so a block after it can be told settled (lex-markdown.ts).
  const raw = src.slice(0, src[taken - 1] === '\n' ? taken - 1 : taken);
  return { raw, body: body.join('') };
}

/** `[^label]: text` and what belongs to it. */
export const footnoteDefinition: TokenizerExtension = {
  name: 'footnote',
  level: 'block',
  tokenizer(src) {
    const taken = takeDefinition(src);
    if (!taken) return undefined;
    const label = normalizeLabel(DEF_START.exec(src)![1]!);
    const token: FootnoteToken = { type: 'footnote', raw: taken.raw, label, tokens: [] };
    this.lexer.blockTokens(taken.body, token.tokens);
    return token;
  },
};

/** `[^label]` in text. */
export const footnoteReference: TokenizerExtension = {
  name: 'footnoteRef',
  level: 'inline',
  tokenizer(src) {
    const match = REF.exec(src);
    if (!match) return undefined;
    const token: FootnoteRefToken = { type: 'footnoteRef', raw: match[0], label: normalizeLabel(match[1]!) };
    return token;
  },
};

/**
 * Numbers footnotes in the order they are first met (a reference, or a definition nobody referred
 * to before). One per rendered text; a streaming render copies it for the part still open.
 *
 * @example const n = createFootnoteNumbers(); n.numberOf('b') === 1; n.numberOf('a') === 2; n.numberOf('b') === 1
 */
export interface FootnoteNumbers {
  numberOf(label: string): number;
  copy(): FootnoteNumbers;
}

export function createFootnoteNumbers(from: ReadonlyMap<string, number> = new Map()): FootnoteNumbers {
  const numbers = new Map(from);
  return {
    numberOf(label) {
      let n = numbers.get(label);
      if (n === undefined) {
        n = numbers.size + 1;
        numbers.set(label, n);
      }
      return n;
    },
    copy: () => createFootnoteNumbers(numbers),
  };
}
