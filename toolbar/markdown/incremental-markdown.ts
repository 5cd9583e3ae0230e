/**
 * Renders a Markdown text that grows by appends (a streaming message) without re-lexing it whole
 * on every append: settled blocks (see `lex-markdown.ts`) are lexed and turned into VNodes once and
 * their VNodes reused; only the open tail is lexed again, and not even that while prose is
 * appended to an open paragraph of prose (see `plain-append.ts`) or code to an open fenced code
 * block (see `open-fence.ts`); a long list in the tail is lexed again from its last item only (see
 * `list-resume.ts`). Reused VNodes also let Preact skip diffing those blocks. The output equals
 * `renderTokens(lexMarkdown(text))`.
 */
import type { Token } from 'marked';
import type { VNode } from 'preact';
import { createFootnoteNumbers } from './footnotes.ts';
import { collectDefinitions, splitSettled, type LinkDefinitions } from './lex-markdown.ts';
import { createTailLexer } from './list-resume.ts';
import { extendsFence, fenceToken, openFence } from './open-fence.ts';
import { extendsProse, openProse, proseParagraph } from './plain-append.ts';
import { renderTokens, type ListItemCache } from './render-tokens.tsx';

/** A render split where the text stops changing: what has settled, and the open tail after it. */
export interface MarkdownParts {
  /**
   * The settled blocks' VNodes. The same array, only ever appended to, while the text grows; a new
   * one when the text is edited. Its length tells when it grew.
   */
  settled: readonly VNode[];
  /** The open tail's VNodes (new whenever the tail changed). */
  tail: VNode[];
}

/**
 * The tail's last block when appends can extend it without lexing: the VNodes of the tail before
 * it, its key, and how to extend it (its token with `more` appended, or null when `more` may make
 * it anything else).
 */
interface OpenEnd {
  before: VNode[];
  key: number;
  extend(more: string): Token | null;
}

/**
 * The open end of `tail` (tokens lexed from `source`), if it is one of the two kinds appends can
 * extend: a paragraph of prose, or a fenced code block.
 */
function findOpenEnd(tail: readonly Token[], source: string): Omit<OpenEnd, 'before' | 'key'> | null {
  let prose = openProse(tail);
  if (prose !== null) {
    return {
      extend(more) {
        if (!extendsProse(prose!, more)) return null;
        prose += more;
        return proseParagraph(prose!);
      },
    };
  }
  let fence = openFence(tail, source);
  if (fence === null) return null;
  return {
    extend(more) {
      if (!extendsFence(fence!, more)) return null;
      fence = { raw: fence!.raw + more, lang: fence!.lang };
      return fenceToken(fence);
    },
  };
}

export interface MarkdownRenderer {
  /** `text` in two parts (see MarkdownParts); cheap when `text` extends the text of the previous call. */
  renderParts(text: string): MarkdownParts;
  /** The same as one list: `[...settled, ...tail]`. */
  render(text: string): VNode[];
}

/**
 * A renderer for one text that streams in. Keep one per rendered text (its cache holds VNodes
 * that may be mounted once only).
 *
 * @example
 * const md = createMarkdownRenderer();
 * md.render('# Title\n\nfirst par'); // lexes it all
 * md.render('# Title\n\nfirst paragraph\n\n'); // lexes from 'first paragraph' on
 * md.renderParts('# Title\n\nfirst paragraph\n\nmore').settled.length; // 1: the title (the last two blocks stay open)
 */
export function createMarkdownRenderer(): MarkdownRenderer {
  /** Source of the settled tokens: always a prefix of the last text rendered. */
  let settledSource = '';
  let settledNodes: VNode[] = [];
  let settledTokens = 0;
  /** Footnote numbers as the settled blocks left them; the open tail numbers on from a copy. */
  let footnotes = createFootnoteNumbers();
  /** The last text rendered, and, when its tail ends in a block appends can extend, that block. */
  let last = '';
  let end: OpenEnd | null = null;
  /** Lexes the tail, reusing the items of a list in it (see list-resume.ts). */
  let lists = createTailLexer();
  /** The reference definitions in the settled blocks: the tail's references use them too. */
  let definitions: LinkDefinitions = {};
  /** VNodes of list items by token: items `lists` reuses keep theirs, and Preact skips them. */
  const items: ListItemCache = new WeakMap();

  const renderParts = (text: string): MarkdownParts => {
    if (end !== null && text.length > last.length && text.slice(0, last.length) === last) {
      const token = end.extend(text.slice(last.length));
      if (token !== null) {
        last = text;
        // Neither prose nor code holds a footnote reference: no numbering to carry on from `before`.
        return { settled: settledNodes, tail: end.before.concat(renderTokens([token], end.key, { footnotes: footnotes.copy() })) };
      }
    }
    last = text;
    end = null;
    // Anything but an append (an edit, another text) starts over. Compared as a slice, not with
    // startsWith: V8's startsWith walks long strings char by char (1.4 s over a 50,000-character
    // reply in 4-character deltas, against 5 ms for the slice's equality).
    if (text.length < settledSource.length || text.slice(0, settledSource.length) !== settledSource) {
      settledSource = '';
      settledNodes = [];
      settledTokens = 0;
      footnotes = createFootnoteNumbers();
      lists = createTailLexer();
      definitions = {};
    }
    const tail = settledSource.length === 0 ? text : text.slice(settledSource.length);
    const split = splitSettled(tail, lists.lex(tail, definitions));
    if (split.settled.length > 0) {
      collectDefinitions(split.settled, definitions);
      for (const node of renderTokens(split.settled, settledTokens, { footnotes, items })) settledNodes.push(node);
      settledTokens += split.settled.length;
      settledSource = text.slice(0, settledSource.length + split.settledLength);
    }
    const open = findOpenEnd(split.tail, tail);
    if (open === null) return { settled: settledNodes, tail: renderTokens(split.tail, settledTokens, { footnotes: footnotes.copy(), items }) };
    // Rendered in two parts that equal one render of the tail (keys count on, numbering is
    // shared), so that the next appends to the open end reuse the first part.
    const numbering = footnotes.copy();
    const key = settledTokens + split.tail.length - 1;
    end = { ...open, key, before: renderTokens(split.tail.slice(0, -1), settledTokens, { footnotes: numbering, items }) };
    return { settled: settledNodes, tail: end.before.concat(renderTokens(split.tail.slice(-1), key, { footnotes: numbering, items })) };
  };

  return {
    renderParts,
    render(text) {
      const { settled, tail } = renderParts(text);
      return settled.concat(tail);
    },
  };
}
