/**
 * Finds the part of a growing Markdown text whose blocks can no longer change, so a streaming
 * message re-parses only what comes after it.
 *
 * A block is settled when the parser starts a new top-level block right after a blank line and
 * that new block's first line is complete (a line break follows it). The parser never looks
 * further ahead than that line to end a block (a list peeks at the next non-blank line to see
 * whether it goes on; a paragraph, table or quote ends at the blank line; a fence ends at its
 * closing marker, and an unclosed fence runs to the end so nothing after its start settles).
 * It never looks back either, so the rest parses the same on its own. Appending text therefore
 * cannot change the settled blocks, and parsing the prefix and the rest separately gives the same
 * blocks as parsing the whole text.
 */
import { isBlank, parseTopLevel, splitLines, type Block } from './parse-blocks.ts';

export interface SettledSplit {
  /** Blocks that appending text can no longer change. */
  settled: Block[];
  /** Length of the source (in `text`'s own characters) the settled blocks come from. */
  settledLength: number;
  /** Blocks of the rest, still open to change. */
  tail: Block[];
}

const LINE_BREAK = /\r\n?|\n/g;

/** Offset in `text` where line `index` starts, counting breaks the way `splitLines` does. */
function findLineOffset(text: string, index: number): number {
  if (index === 0) return 0;
  LINE_BREAK.lastIndex = 0;
  let line = 0;
  for (let m = LINE_BREAK.exec(text); m; m = LINE_BREAK.exec(text)) {
    line++;
    if (line === index) return m.index + m[0].length;
  }
  throw new Error(`text has no line ${index}`);
}

/**
 * Parses `text` and splits its blocks into the settled ones and the rest.
 *
 * @example
 * splitSettled('para one\n\npara two\n\npara thr')
 * // settled: [paragraph 'para one', paragraph 'para two'], settledLength: 20, tail: [paragraph 'para thr']
 */
export function splitSettled(text: string): SettledSplit {
  const lines = splitLines(text);
  const starts: number[] = [];
  const blocks = parseTopLevel(lines, starts);
  // The last line may still grow, so a block starting on it does not settle what precedes it.
  for (let k = starts.length - 1; k > 0; k--) {
    const start = starts[k]!;
    if (start < lines.length - 1 && isBlank(lines[start - 1]!)) {
      return { settled: blocks.slice(0, k), settledLength: findLineOffset(text, start), tail: blocks.slice(k) };
    }
  }
  return { settled: [], settledLength: 0, tail: blocks };
}
