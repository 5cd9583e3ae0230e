/**
 * The open tail of a streaming reply is often one long list (steps, each with a paragraph and a
 * code block), and a list does not settle until a block after it starts: lexing it whole on every
 * delta costs time in proportion to the list, about 0.1 ms per 1,000 characters here.
 *
 * Once the list's next item has started, an item can no longer change: marked's list tokenizer
 * takes items one after the other and ends each one where the next begins. So the tail is lexed
 * again from the start of the list's last item only, and the items before it are reused, with the
 * list's looseness (which decides whether items hold paragraphs) carried over:
 * - a loose list stays loose whatever follows; the new items are made loose as marked makes them
 *   (their text tokens become paragraphs; task items are left to a whole lex, as their checkbox
 *   moves into the paragraph);
 * - a tight list stays tight only while the new items are; once they are loose, the old items
 *   change too, and the tail is lexed whole.
 * A tail that defines a link itself (`[label]: url`) is lexed whole: the definition decides
 * references in any item, before or after it. Definitions made before the tail are given to every lex.
 */
import type { Token, Tokens, TokensList } from 'marked';
import { lexMarkdown, type LinkDefinitions } from './lex-markdown.ts';

/** How many reference definitions (`[label]: url`) lexing knew of, given or its own (marked keeps them beside the tokens). */
function countLinks(tokens: Token[]): number {
  const links = (tokens as Partial<TokensList>).links;
  return links === undefined ? 0 : Object.keys(links).length;
}

/** The tail's last list, lexed: what an append can reuse of it. */
interface ListCache {
  /** The tail up to the start of the list's last item. */
  source: string;
  /** The tail's tokens before the list. */
  before: Token[];
  /** The list, for its kind, start and looseness. */
  list: Tokens.List;
  /** Its source up to its last item. */
  listHead: string;
  /** Its items but the last. */
  items: Tokens.ListItem[];
  /** How many definitions from before the tail it was lexed with. */
  given: number;
}

export interface TailLexer {
  /**
   * `lexMarkdown(tail, links)`, reusing the items of the last list of the previous tail this one
   * extends. `links`: the definitions before the tail, which only ever gain labels.
   */
  lex(tail: string, links?: LinkDefinitions): Token[];
}

/**
 * A lexer for the open tail of one streaming text: keep one per text, as the renderer does.
 *
 * @example
 * const lexer = createTailLexer();
 * lexer.lex('1. first\n\n2. second\n\n3. thi'); // lexed whole
 * lexer.lex('1. first\n\n2. second\n\n3. third, and more'); // only '3. third, and more' lexed again
 */
export function createTailLexer(): TailLexer {
  let cache: ListCache | null = null;

  const remember = (tail: string, tokens: Token[], given: number): void => {
    cache = null;
    // A reference definition anywhere in the tail decides links in every item (the lexer reads
    // inline text once all blocks are in): a lex of the last item alone would not know it.
    if (countLinks(tokens) > given) return;
    let k = tokens.length - 1;
    while (k >= 0 && tokens[k]!.type !== 'list') k--;
    if (k < 0) return;
    const list = tokens[k] as Tokens.List;
    if (list.items.length < 2) return;
    // Offsets come from the tokens' raw text, which covers the tail end to end unless the lexer
    // rewrote it (line breaks "\r\n" or "\r"): then nothing is reused.
    let listStart = 0;
    for (let i = 0; i < k; i++) listStart += tokens[i]!.raw.length;
    let itemStart = listStart;
    for (let i = 0; i < list.items.length - 1; i++) itemStart += list.items[i]!.raw.length;
    const last = list.items[list.items.length - 1]!;
    if (tail.includes('\r') || tail.slice(itemStart, itemStart + last.raw.length) !== last.raw) return;
    cache = {
      source: tail.slice(0, itemStart),
      before: tokens.slice(0, k),
      list,
      listHead: tail.slice(listStart, itemStart),
      items: list.items.slice(0, -1),
      given,
    };
  };

  /** The list the cached one becomes with `fresh` (lexed from its last item) as its last items; null if it cannot. */
  const extend = (c: ListCache, fresh: Tokens.List): Tokens.List | null => {
    if (!c.list.loose) {
      if (fresh.loose) return null;
    } else if (!fresh.loose) {
      if (fresh.items.some((item) => item.task)) return null;
      for (const item of fresh.items) {
        item.loose = true;
        for (const t of item.tokens) if (t.type === 'text') t.type = 'paragraph';
      }
    }
    return { ...c.list, raw: c.listHead + fresh.raw, items: c.items.concat(fresh.items) };
  };

  return {
    lex(tail, links) {
      const given = links ? Object.keys(links).length : 0;
      const c: ListCache | null = cache;
      if (c !== null && c.given === given && tail.length > c.source.length && tail.slice(0, c.source.length) === c.source && !tail.includes('\r', c.source.length)) {
        const rest = lexMarkdown(tail.slice(c.source.length), links);
        const list = rest[0]?.type === 'list' && countLinks(rest) === given ? extend(c, rest[0] as Tokens.List) : null;
        if (list !== null) {
          const tokens = [...c.before, list, ...rest.slice(1)];
          remember(tail, tokens, given);
          return tokens;
        }
      }
      const tokens = lexMarkdown(tail, links);
      remember(tail, tokens, given);
      return tokens;
    },
  };
}
