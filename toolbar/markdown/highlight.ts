/**
 * A small syntax highlighter for code blocks: one linear pass of a sticky regular expression per
 * language family, giving pieces of text with a kind (comment, string, keyword, number, literal,
 * tag, attribute). No HTML is made: the code block renders each piece as a text node in a span.
 * It knows the languages agents write most (JavaScript and TypeScript, JSON, CSS, HTML and XML,
 * shell, Python, Go, Rust, Java, C-likes, SQL, YAML); any other language shows as plain text, and
 * so does one whose grammar has not been loaded (yet).
 */

import { languageOf, type GrammarName } from './grammar-names.ts';
import { grammarSource } from './grammar-loader.ts';
import type { GrammarSource } from './grammar-sources.ts';

export type HighlightKind = 'comment' | 'string' | 'keyword' | 'number' | 'literal' | 'tag' | 'attr';

export interface HighlightPiece {
  text: string;
  kind: HighlightKind | null;
}

/** Longer code is shown plain: highlighting must never make a long block slow to stream. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

interface Grammar {
  /** Alternation of capture groups, in this order: comment, string, number, word, other. */
  pattern: RegExp;
  keywords: ReadonlySet<string>;
  literals: ReadonlySet<string>;
}

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

const NUMBER = String.raw`\b(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?n?)\b`;
const WORD = String.raw`[A-Za-z_$][\w$]*`;

function buildGrammar(source: GrammarSource): Grammar | null {
  const caseless = source.caseless === true;
  // An empty alternative would match everywhere: a grammar without comments has a never-matching one.
  const alt = (pattern: string) => pattern || '(?!)';
  try {
    return {
      pattern: new RegExp(`(${alt(source.comment)})|(${alt(source.string)})|(${NUMBER})|(${WORD})`, 'gy' + (caseless ? 'i' : '')),
      keywords: words(caseless ? source.keywords.toLowerCase() : source.keywords),
      literals: words(caseless ? source.literals.toLowerCase() : source.literals),
    };
  } catch {
    return null;
  }
}

/**
 * Each language's grammar arrives as data the first time a code block in it shows
 * (grammar-loader.ts), and is compiled here once, on first use: a page that never shows code
 * loads and compiles none of them.
 */
const built = new Map<string, Grammar | null>();

function grammarOf(name: GrammarName): Grammar | null {
  if (built.has(name)) return built.get(name)!;
  const source = grammarSource(name);
  if (!source) return null;
  const g = buildGrammar(source);
  built.set(name, g);
  return g;
}

/** Languages whose grammar has been built so far (for tests). */
export function builtGrammars(): string[] {
  return [...built.keys()].filter((name) => built.get(name));
}

const MARKUP = /(<!--[\s\S]*?(?:-->|$))|(<\/?[A-Za-z][\w:-]*)|([A-Za-z_:][\w:.-]*)(?==)|("[^"]*"?|'[^']*'?)/gy;

/**
 * Collects a tokenizer's pieces into `out`, with where each starts in `starts` and, for markup,
 * its state in `states`: neighbouring plain text becomes one piece, starting where its first part
 * did, in that part's state.
 */
function createPieceWriter(out: HighlightPiece[], starts: number[], states: boolean[] | null) {
  let plain = '';
  let plainAt = 0;
  let plainState = false;
  const flush = () => {
    if (!plain) return;
    out.push({ text: plain, kind: null });
    starts.push(plainAt);
    states?.push(plainState);
    plain = '';
  };
  return {
    add(at: number, text: string, kind: HighlightKind | null, state = false) {
      if (kind === null) {
        if (!plain) {
          plainAt = at;
          plainState = state;
        }
        plain += text;
        return;
      }
      flush();
      out.push({ text, kind });
      starts.push(at);
      states?.push(state);
    },
    end: flush,
  };
}

/**
 * Appends the markup pieces of `code` from `from` on to `out`, with the offset of each in `starts`
 * and whether it starts inside a tag in `inTag`: the one state this tokenizer keeps beside its
 * position, so a pass resumed at a piece's start, in that piece's state, gives what a pass from 0
 * gives from there on.
 */
function tokenizeMarkup(code: string, from: number, tagAtFrom: boolean, out: HighlightPiece[], starts: number[], inTag: boolean[]): void {
  const w = createPieceWriter(out, starts, inTag);
  let tag = tagAtFrom;
  for (let i = from; i < code.length; ) {
    MARKUP.lastIndex = i;
    const m = MARKUP.exec(code);
    if (m && m.index === i && m[0].length > 0) {
      if (m[1] !== undefined) w.add(i, m[1], 'comment', tag);
      else if (m[2] !== undefined) {
        w.add(i, m[2], 'tag', tag);
        tag = true;
      } else if (tag && m[3] !== undefined) w.add(i, m[3], 'attr', tag);
      else if (tag && m[4] !== undefined) w.add(i, m[4], 'string', tag);
      else w.add(i, m[0], null, tag);
      i += m[0].length;
      continue;
    }
    const c = code[i]!;
    w.add(i, c, null, tag);
    if (c === '>') tag = false;
    i++;
  }
  w.end();
}

/**
 * Appends the pieces of `code` from `from` on to `out`, with the offset of each in `starts`. The
 * tokenizer keeps no state but its position, so starting at any offset where a piece starts gives
 * what a pass from 0 gives from there on (what `highlightGrowing` relies on).
 */
function tokenizeGrammar(g: Grammar, code: string, from: number, out: HighlightPiece[], starts: number[]): void {
  const caseless = g.pattern.flags.includes('i');
  const w = createPieceWriter(out, starts, null);
  for (let i = from; i < code.length; ) {
    g.pattern.lastIndex = i;
    const m = g.pattern.exec(code);
    if (!m || m[0].length === 0) {
      w.add(i, code[i]!, null);
      i++;
      continue;
    }
    const [text, comment, string, number, word] = m;
    if (comment !== undefined) w.add(i, text, 'comment');
    else if (string !== undefined) w.add(i, text, 'string');
    else if (number !== undefined) w.add(i, text, 'number');
    else if (word !== undefined) {
      const key = caseless ? word.toLowerCase() : word;
      w.add(i, text, g.keywords.has(key) ? 'keyword' : g.literals.has(key) ? 'literal' : null);
    }
    i += text.length;
  }
  w.end();
}

/**
 * The pieces of `code` in `lang`, or null when the language is unknown, its grammar not loaded
 * (see `loadGrammar`) or the code too long.
 *
 * @example highlight('const a = 1; // one', 'ts') // [{ text: 'const', kind: 'keyword' }, { text: ' a = ', kind: null }, …]
 */
export function highlight(code: string, lang: string): HighlightPiece[] | null {
  return highlightGrowing(null, code, lang)?.pieces ?? null;
}

/** One code block's highlighting, kept between the calls of `highlightGrowing` as it streams in. */
export interface HighlightRun {
  code: string;
  lang: string;
  pieces: HighlightPiece[];
  /** Where each piece starts in `code`. */
  starts: number[];
  /** Markup only: whether each piece starts inside a tag (see tokenizeMarkup). */
  inTag: boolean[] | null;
  /** How many of the first pieces are the very objects of the run before (0 when it started over). */
  kept: number;
}

/**
 * No grammar's token looks further past its end than this (a number's exponent, an escape, a
 * closing quote): a token that ends this far before the end of the text cannot change when more
 * text is appended. Generous on purpose; highlight.test.ts streams every grammar to check it.
 */
const LOOKAHEAD = 16;

/**
 * `highlight`, for code that grows by appends (a code block while its reply streams): only the
 * end is tokenized again, from a piece that ended well before the previous end, and the pieces
 * before it are kept as they were (the same objects), so a long block costs a few pieces per
 * append instead of all of them. Anything but an append starts over. The result equals
 * `highlight(code, lang)`.
 *
 * @example
 * const first = highlightGrowing(null, 'const a = 1; // the first line\nlet b', 'ts');
 * const next = highlightGrowing(first, 'const a = 1; // the first line\nlet b = 2;', 'ts');
 * next.kept; // 4: `const`, ` a = `, `1` and `; ` are the same pieces; from the comment on, tokenized again
 */
export function highlightGrowing(previous: HighlightRun | null, code: string, lang: string): HighlightRun | null {
  if (code.length > MAX_HIGHLIGHT_CHARS) return null;
  const language = languageOf(lang);
  const g = language && language !== 'markup' ? grammarOf(language) : null;
  if (language !== 'markup' && !g) return null;
  let kept = 0;
  if (
    previous &&
    previous.lang === lang &&
    code.length >= previous.code.length &&
    // A slice's equality, not startsWith (see incremental-markdown.ts).
    code.slice(0, previous.code.length) === previous.code
  ) {
    const limit = previous.code.length - LOOKAHEAD;
    // The pieces before the last one that starts at or before the limit end by then.
    let j = previous.starts.length - 1;
    while (j > 0 && previous.starts[j]! > limit) j--;
    kept = Math.max(0, j);
  }
  const pieces = kept > 0 ? previous!.pieces.slice(0, kept) : [];
  const starts = kept > 0 ? previous!.starts.slice(0, kept) : [];
  const from = kept > 0 ? previous!.starts[kept]! : 0;
  const before = pieces.length;
  let inTag: boolean[] | null = null;
  if (g) tokenizeGrammar(g, code, from, pieces, starts);
  else {
    inTag = kept > 0 ? previous!.inTag!.slice(0, kept) : [];
    tokenizeMarkup(code, from, kept > 0 && previous!.inTag![kept]!, pieces, starts, inTag);
  }
  // Two plain pieces meet where the kept ones end: one piece, as a whole pass gives.
  if (before > 0 && pieces.length > before && pieces[before - 1]!.kind === null && pieces[before]!.kind === null) {
    pieces[before - 1] = { text: pieces[before - 1]!.text + pieces[before]!.text, kind: null };
    pieces.splice(before, 1);
    starts.splice(before, 1);
    inTag?.splice(before, 1);
    kept--;
  }
  return { code, lang, pieces, starts, inTag, kept };
}
