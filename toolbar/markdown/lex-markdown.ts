/**
 * Markdown to tokens with marked's lexer (CommonMark plus the GitHub extensions: tables, task
 * lists, strikethrough, autolinks, and footnotes from footnotes.ts), and the split of a growing text into the blocks more text can
 * no longer change, so a streaming message re-lexes only its tail.
 *
 * A top-level block is settled when a later top-level block starts right after a blank line, on a
 * line that is complete (a line break follows it). After a blank line, only a list (a next item or
 * an indented continuation), an unclosed fence or an HTML block of kinds 1-5 can still take more
 * lines, and in each of those cases the lexer would not have started a new top-level block there.
 * Reference definitions are the one exception: a later `[x]: url` changes an earlier `[x]`. Agents
 * do not write them, and a settled block keeps the reading it had. (Definitions in settled blocks
 * do reach the open tail: the renderer lexes it with them, see `collectDefinitions`.)
 */
import { Lexer, type MarkedOptions, type Token, type Tokens, type TokensList } from 'marked';
import { footnoteDefinition, footnoteReference } from './footnotes.ts';

// The extensions as marked.use() would register them, without pulling marked's HTML parser and
// renderer into the toolbar bundle. No start functions: marked would call them on the rest of the
// text at every paragraph and every inline token (quadratic on long input). None is needed: a
// definition does not interrupt a paragraph (as on GitHub), and text already stops before "[".
const OPTIONS: MarkedOptions = {
  gfm: true,
  breaks: false,
  pedantic: false,
  extensions: {
    renderers: {},
    childTokens: {},
    block: [footnoteDefinition.tokenizer],
    inline: [footnoteReference.tokenizer],
  },
};

/** Reference definitions (`[label]: url "title"`) by label, as marked keeps them beside the tokens. */
export type LinkDefinitions = Record<string, { href: string; title: string }>;

/**
 * `links`: definitions made before `text` (in blocks already lexed), which its references use.
 *
 * @example lexMarkdown('# Title\n\nText') // [heading, space, paragraph]
 * @example lexMarkdown('See [x].', { x: { href: 'https://a.b', title: '' } }) // a paragraph with a link
 */
export function lexMarkdown(text: string, links?: LinkDefinitions): TokensList | Token[] {
  try {
    const lexer = new Lexer(OPTIONS);
    if (links) Object.assign(lexer.tokens.links, links);
    return lexer.lex(text);
  } catch {
    // Hostile nesting (thousands of ">" or list levels) overflows the lexer's stack: show the text.
    return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text, escaped: true }] }];
  }
}

/**
 * Adds the reference definitions in `tokens` (at any depth: a definition in a list item or a quote
 * counts for the whole text) to `into`; the first for a label wins, as in marked.
 *
 * @example collectDefinitions(lexMarkdown('[x]: https://a.b\n\ntext'), {}) // { x: { href: 'https://a.b', title: '' } }
 */
export function collectDefinitions(tokens: readonly Token[], into: LinkDefinitions): LinkDefinitions {
  for (const token of tokens) {
    if (token.type === 'def') {
      const def = token as Tokens.Def;
      if (!Object.hasOwn(into, def.tag)) into[def.tag] = { href: def.href, title: def.title };
    } else if (token.type === 'list') {
      for (const item of (token as Tokens.List).items) collectDefinitions(item.tokens, into);
    } else if ('tokens' in token && Array.isArray(token.tokens) && token.type !== 'paragraph' && token.type !== 'heading') {
      collectDefinitions(token.tokens, into);
    }
  }
  return into;
}

export interface SettledSplit {
  /** Tokens that appending text can no longer change. */
  settled: Token[];
  /** Length of the source the settled tokens come from. */
  settledLength: number;
  /** Tokens of the rest, still open to change. */
  tail: Token[];
}

/**
 * Splits the tokens of `text` (lexed here unless given) into the settled ones and the rest.
 *
 * @example
 * splitSettled('para one\n\npara two\n\npara thr')
 * // settled: [para one, space, para two, space], settledLength: 20, tail: [para thr]
 */
export function splitSettled(text: string, tokens: Token[] = lexMarkdown(text)): SettledSplit {
  // Offsets of each token in the text: the lexer's raw pieces cover it end to end.
  const starts: number[] = [];
  let offset = 0;
  for (const token of tokens) {
    starts.push(offset);
    offset += token.raw.length;
  }
  if (offset !== text.length) return { settled: [], settledLength: 0, tail: tokens };
  for (let k = tokens.length - 1; k > 0; k--) {
    const previous = tokens[k - 1]!;
    if (previous.type !== 'space') continue;
    // The block must start on a line that is complete.
    const start = starts[k]!;
    if (!/[\r\n]/.test(text.slice(start))) continue;
    // A space token holds the previous line's end and the blank lines: two breaks or more.
    if ((previous.raw.match(/\r\n|\r|\n/g)?.length ?? 0) < 2) continue;
    return { settled: tokens.slice(0, k), settledLength: start, tail: tokens.slice(k) };
  }
  return { settled: [], settledLength: 0, tail: tokens };
}
