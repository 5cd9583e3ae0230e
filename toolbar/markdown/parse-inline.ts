/**
 * Inline Markdown: code spans, strong/emphasis/strikethrough, links (only safe schemes), bare
 * URLs and line breaks. Everything else, including any HTML, is text. Runs in linear time on
 * hostile input (failed delimiter searches are remembered, brackets are matched in one pass).
 */
import { sanitizeHref } from './sanitize-href.ts';

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' };

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const BARE_URL = /^(?:https?:\/\/|mailto:)[^\s<>"]+/i;
const MAX_NESTING = 16;

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch);
}

/** For each `[` its matching `]` (skipping escapes), found with one stack pass. */
function matchBrackets(src: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') i++;
    else if (ch === '[') stack.push(i);
    else if (ch === ']') {
      const open = stack.pop();
      if (open !== undefined) pairs.set(open, i);
    }
  }
  return pairs;
}

/** Reads `(url)` or `(url "title")` at `at`; returns the url and the index after `)`. */
function readLinkTarget(src: string, at: number): { url: string; end: number } | null {
  if (src[at] !== '(') return null;
  let i = at + 1;
  while (src[i] === ' ') i++;
  let url = '';
  if (src[i] === '<') {
    const close = src.indexOf('>', i);
    if (close < 0 || close - i > 4096) return null;
    url = src.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const begin = i;
    while (i < src.length && i - begin <= 4096) {
      const ch = src[i]!;
      if (ch === '\\') i += 2;
      else if (/\s/.test(ch)) break;
      else if (ch === '(') depth++, i++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
        i++;
      } else i++;
    }
    url = src.slice(begin, i);
  }
  while (src[i] === ' ') i++;
  const quote = src[i];
  if (quote === '"' || quote === "'") {
    const close = src.indexOf(quote, i + 1);
    if (close < 0) return null;
    i = close + 1;
    while (src[i] === ' ') i++;
  }
  if (src[i] !== ')') return null;
  return { url, end: i + 1 };
}

/** Trims trailing punctuation a bare URL should not swallow, like the `.` ending a sentence. */
function trimBareUrl(url: string): string {
  let end = url.length;
  while (end > 0) {
    const ch = url[end - 1]!;
    if ('.,;:!?\'"*_~'.includes(ch)) end--;
    else if (ch === ')') {
      const opens = url.slice(0, end).split('(').length - 1;
      const closes = url.slice(0, end).split(')').length - 1;
      if (closes > opens) end--;
      else break;
    } else break;
  }
  return url.slice(0, end);
}

class InlineParser {
  private readonly src: string;
  private readonly brackets: Map<number, number>;
  /** Delimiters with no closer after some position: later openers cannot close either. */
  private readonly failed = new Map<string, number>();
  private readonly depth: number;

  constructor(src: string, depth: number) {
    this.src = src;
    this.brackets = matchBrackets(src);
    this.depth = depth;
  }

  parse(): Inline[] {
    const src = this.src;
    const out: Inline[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push({ type: 'text', text });
      text = '';
    };
    let i = 0;
    while (i < src.length) {
      const ch = src[i]!;

      if (ch === '\\' && i + 1 < src.length && PUNCTUATION.test(src[i + 1]!)) {
        text += src[i + 1];
        i += 2;
        continue;
      }
      if (ch === '\n') {
        flush();
        out.push({ type: 'br' });
        i++;
        continue;
      }
      if (ch === '`') {
        let run = 1;
        while (src[i + run] === '`') run++;
        const close = this.findCodeClose(i + run, run);
        if (close < 0) {
          text += src.slice(i, i + run);
          i += run;
          continue;
        }
        let code = src.slice(i + run, close).replace(/\n/g, ' ');
        if (code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
        flush();
        out.push({ type: 'code', text: code });
        i = close + run;
        continue;
      }
      if ((ch === '*' || ch === '_' || ch === '~') && this.depth < MAX_NESTING) {
        const found = this.tryDelimited(i);
        if (found) {
          flush();
          out.push(found.node);
          i = found.end;
          continue;
        }
      }
      if (ch === '[' || (ch === '!' && src[i + 1] === '[')) {
        const found = this.tryLink(ch === '!' ? i + 1 : i);
        if (found) {
          flush();
          out.push(...found.nodes);
          i = found.end;
          continue;
        }
      }
      if ((ch === 'h' || ch === 'H' || ch === 'm' || ch === 'M') && !WORD.test(src[i - 1] ?? ' ')) {
        const m = BARE_URL.exec(src.slice(i, i + 4096));
        if (m) {
          const url = trimBareUrl(m[0]);
          const href = sanitizeHref(url);
          if (href && url.length > 'https://'.length - 1) {
            flush();
            out.push({ type: 'link', href, children: [{ type: 'text', text: url }] });
            i += url.length;
            continue;
          }
        }
      }
      if (ch === '<') {
        // `<https://…>` autolinks; any other `<` is literal text (HTML is never interpreted).
        const close = src.indexOf('>', i);
        if (close > i && close - i < 4096) {
          const inner = src.slice(i + 1, close);
          const href = /^[a-z][a-z0-9+.-]*:[^\s<>]*$/i.test(inner) ? sanitizeHref(inner) : null;
          if (href) {
            flush();
            out.push({ type: 'link', href, children: [{ type: 'text', text: inner }] });
            i = close + 1;
            continue;
          }
        }
      }
      text += ch;
      i++;
    }
    flush();
    return out;
  }

  private findCodeClose(from: number, run: number): number {
    const key = '`' + run;
    const failedAt = this.failed.get(key);
    if (failedAt !== undefined && from >= failedAt) return -1;
    const src = this.src;
    let i = from;
    while (i < src.length) {
      const j = src.indexOf('`', i);
      if (j < 0) break;
      let n = 1;
      while (src[j + n] === '`') n++;
      if (n === run) return j;
      i = j + n;
    }
    this.failed.set(key, from);
    return -1;
  }

  private tryDelimited(at: number): { node: Inline; end: number } | null {
    const src = this.src;
    const ch = src[at]!;
    let run = 1;
    while (src[at + run] === ch) run++;
    if (ch === '~' && run !== 2) return null;
    const len = ch === '~' ? 2 : Math.min(run, 2);
    const delim = ch.repeat(len);
    const after = src[at + len];
    if (isSpace(after)) return null;
    // `snake_case_names` are not emphasis.
    if (ch === '_' && WORD.test(src[at - 1] ?? ' ')) return null;

    const failedAt = this.failed.get(delim);
    if (failedAt !== undefined && at >= failedAt) return null;

    let j = at + len;
    while (j < src.length) {
      const k = src.indexOf(ch, j);
      if (k < 0) break;
      let r = 1;
      while (src[k + r] === ch) r++;
      // A closer is a run of the same length, or the tail of a `***` run.
      const end = r === len || r === 3 ? k + r - len : -1;
      const before = src[end - 1];
      const next = src[k + r];
      const ok =
        end > at + len &&
        !isSpace(before) &&
        before !== '\\' &&
        (ch !== '_' || !WORD.test(next ?? ' '));
      if (ok) {
        const inner = src.slice(at + len, end);
        const children = new InlineParser(inner, this.depth + 1).parse();
        const type = ch === '~' ? 'del' : len === 2 ? 'strong' : 'em';
        return { node: { type, children }, end: end + len };
      }
      j = k + r;
    }
    this.failed.set(delim, at);
    return null;
  }

  private tryLink(open: number): { nodes: Inline[]; end: number } | null {
    const close = this.brackets.get(open);
    if (close === undefined) return null;
    const target = readLinkTarget(this.src, close + 1);
    if (!target) return null;
    const isImage = this.src[open - 1] === '!';
    const label = this.src.slice(open + 1, close);
    const children =
      this.depth < MAX_NESTING ? new InlineParser(label, this.depth + 1).parse() : [{ type: 'text' as const, text: label }];
    const href = sanitizeHref(target.url);
    if (isImage) {
      // Messages never load remote resources: an image reference becomes a link to it.
      const text = label || 'image';
      return href
        ? { nodes: [{ type: 'link', href, children: [{ type: 'text', text }] }], end: target.end }
        : { nodes: [{ type: 'text', text }], end: target.end };
    }
    return href ? { nodes: [{ type: 'link', href, children }], end: target.end } : { nodes: children, end: target.end };
  }
}

/**
 * Parses inline Markdown.
 *
 * @example
 * parseInline('see **[docs](https://x.dev)**')
 * // [{type:'text',text:'see '},{type:'strong',children:[{type:'link',href:'https://x.dev/',…}]}]
 */
export function parseInline(src: string, depth = 0): Inline[] {
  return new InlineParser(src, depth).parse();
}
