/**
 * A small Markdown block parser for chat messages: paragraphs, ATX headings, fenced code, lists
 * (nested, ordered, task items), block quotes, thematic breaks and GFM tables. It produces a plain
 * AST that `render-markdown.ts` turns into VNodes; raw HTML is never interpreted, it stays text.
 *
 * Streaming-friendly: an unclosed fence runs to the end of the text, so a code block being written
 * renders as code from its first line.
 */
import { parseInline, type Inline } from './parse-inline.ts';

export type Align = 'left' | 'center' | 'right' | null;

export interface ListItem {
  /** null for a plain item, true/false for a `- [x]` / `- [ ]` task item. */
  checked: boolean | null;
  children: Block[];
}

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; lang: string; text: string; closed: boolean }
  | { type: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { type: 'blockquote'; children: Block[] }
  | { type: 'hr' }
  | { type: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

/** Nesting deeper than this (quotes in lists in quotes…) is shown as text, so input cannot blow the stack. */
const MAX_DEPTH = 12;

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const TASK = /^\[([ xX])\][ \t]+/;

/** A line of only whitespace: it separates blocks. */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Expands tabs to 4-column stops so indentation compares as spaces. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') out += ' '.repeat(4 - (out.length % 4));
    else out += ch;
  }
  return out;
}

function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === ' ') n++;
  return n;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function splitTableRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && s[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

function parseAlign(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  if (left && right) return 'center';
  if (right) return 'right';
  if (left) return 'left';
  return null;
}

/** `starts`, when given, receives the index of each block's first line (one entry per block). */
function parseLines(lines: string[], depth: number, starts?: number[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    // Every branch below pushes exactly one block.
    starts?.push(i);

    const fence = FENCE.exec(line);
    if (fence) {
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const body: string[] = [];
      let closed = false;
      i++;
      while (i < lines.length) {
        const l = lines[i]!;
        const trimmed = l.trim();
        if (indentOf(l) < 4 && trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length)) {
          closed = true;
          i++;
          break;
        }
        // Content lines lose at most the fence's own indentation.
        body.push(l.slice(Math.min(indent, indentOf(l))));
        i++;
      }
      blocks.push({ type: 'code', lang: fence[3] ?? '', text: body.join('\n'), closed });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(heading[2] ?? '') });
      i++;
      continue;
    }

    if (HR.test(line)) {
      blocks.push({ type: 'hr' });
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        inner.push(lines[i]!.replace(QUOTE, ''));
        i++;
      }
      blocks.push(
        depth >= MAX_DEPTH
          ? { type: 'paragraph', children: parseInline(inner.join('\n')) }
          : { type: 'blockquote', children: parseLines(inner, depth + 1) },
      );
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item) {
      const { block, next } = parseList(lines, i, depth);
      blocks.push(block);
      i = next;
      continue;
    }

    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && TABLE_DELIMITER.test(next) && next.includes('-')) {
      const head = splitTableRow(line);
      const delims = splitTableRow(next);
      if (head.length === delims.length) {
        const rows: Inline[][][] = [];
        i += 2;
        while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|') && !startsBlock(lines[i]!)) {
          const cells = splitTableRow(lines[i]!);
          const row: Inline[][] = [];
          for (let c = 0; c < head.length; c++) row.push(parseInline(cells[c] ?? ''));
          rows.push(row);
          i++;
        }
        blocks.push({ type: 'table', align: delims.map(parseAlign), head: head.map((c) => parseInline(c)), rows });
        continue;
      }
    }

    const para: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!)) {
      para.push(lines[i]!.trim());
      i++;
    }
    blocks.push({ type: 'paragraph', children: parseInline(para.join('\n')) });
  }
  return blocks;
}

function parseList(lines: string[], from: number, depth: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[from]!)!;
  const ordered = /\d/.test(first[2]!);
  const delimiter = first[2]!.slice(-1);
  const start = ordered ? Number.parseInt(first[2]!, 10) : 1;
  const baseIndent = first[1]!.length;
  const items: ListItem[] = [];
  let i = from;

  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== baseIndent) break;
    const isOrdered = /\d/.test(m[2]!);
    if (isOrdered !== ordered || m[2]!.slice(-1) !== delimiter) break;

    const rest = m[3] ?? '';
    const contentIndent = m[1]!.length + m[2]!.length + 1;
    const body: string[] = [rest];
    i++;
    while (i < lines.length) {
      const l = lines[i]!;
      if (isBlank(l)) {
        // A blank line ends the item unless an indented line continues it.
        const following = lines[i + 1];
        if (following !== undefined && !isBlank(following) && indentOf(following) >= contentIndent) {
          body.push('');
          i++;
          continue;
        }
        break;
      }
      if (indentOf(l) >= contentIndent) {
        body.push(l.slice(contentIndent));
        i++;
        continue;
      }
      // Lazy continuation of the item's paragraph; any new block ends the item.
      if (startsBlock(l)) break;
      body.push(l.trim());
      i++;
    }

    let checked: boolean | null = null;
    const task = TASK.exec(body[0]!);
    if (task) {
      checked = task[1] !== ' ';
      body[0] = body[0]!.slice(task[0].length);
    }
    const children =
      depth >= MAX_DEPTH
        ? [{ type: 'paragraph' as const, children: parseInline(body.join('\n')) }]
        : parseLines(body, depth + 1);
    items.push({ checked, children });

    // Blank lines between items of one list are allowed.
    let j = i;
    while (j < lines.length && isBlank(lines[j]!)) j++;
    if (j > i && j < lines.length) {
      const n = LIST_ITEM.exec(lines[j]!);
      if (n && n[1]!.length === baseIndent && /\d/.test(n[2]!) === ordered) i = j;
    }
  }
  return { block: { type: 'list', ordered, start, items }, next: i };
}

/**
 * Parses Markdown into blocks.
 *
 * @example
 * parseMarkdown('# Hi\n\n```ts\nlet a = 1\n```')
 * // [{ type: 'heading', level: 1, … }, { type: 'code', lang: 'ts', text: 'let a = 1', closed: true }]
 */
export function parseMarkdown(text: string): Block[] {
  return parseLines(splitLines(text), 0);
}

/**
 * Splits text into the lines the parser reads: any line break (`\r\n`, `\r`, `\n`) ends a line,
 * tabs become spaces.
 *
 * @example
 * splitLines('a\r\n\tb') // ['a', '    b']
 */
export function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n').map(expandTabs);
}

/**
 * Parses lines (from `splitLines`) as a whole document and reports where each top-level block
 * starts: `starts[k]` is the index of the first line of `blocks[k]`.
 *
 * @example
 * parseTopLevel(splitLines('# A\n\ntext'), []) // blocks: heading, paragraph; starts: [0, 2]
 */
export function parseTopLevel(lines: string[], starts: number[]): Block[] {
  return parseLines(lines, 0, starts);
}
