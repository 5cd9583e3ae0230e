/**
 * A code block's pieces grouped into runs of whole lines, each run a block of its own in the page.
 * One text of thousands of lines is one inline layout for the browser: every delta of a streaming
 * block laid it all out and painted it again. In runs of CODE_LINES lines, only the open last run
 * changes, and the runs before it keep their layout and paint. Framework-free: CodeBlock renders
 * the runs, reusing the VNode of every run `groupLines` kept.
 */
import type { HighlightPiece } from './highlight.ts';

/** Lines per run. */
export const CODE_LINES = 16;

/** Some lines of a code block: the pieces in them, a piece cut in two where a run ends inside it. */
export interface LineRun {
  pieces: HighlightPiece[];
  /** The last source piece the run holds all or the first part of. */
  lastPiece: number;
  /** Where the next run starts: a source piece, and an offset in its text. */
  nextPiece: number;
  nextOffset: number;
  /** Holds all its lines (the last run of a growing block is open). */
  complete: boolean;
}

/**
 * The runs of `pieces`, reusing the runs of `previous` that hold only the first `kept` pieces
 * (the ones the source kept, by identity, from the pieces `previous` was made of); `reused` says
 * how many, and they are the same objects.
 *
 * @example
 * const first = groupLines([], pieces, 0);
 * const next = groupLines(first.runs, morePieces, kept); // next.runs[0] === first.runs[0] when kept covers it
 */
export function groupLines(previous: readonly LineRun[], pieces: readonly HighlightPiece[], kept: number): { runs: LineRun[]; reused: number } {
  let reused = 0;
  while (reused < previous.length && previous[reused]!.complete && previous[reused]!.lastPiece < kept) reused++;
  const runs = previous.slice(0, reused);
  let piece = reused > 0 ? runs[reused - 1]!.nextPiece : 0;
  let offset = reused > 0 ? runs[reused - 1]!.nextOffset : 0;
  while (piece < pieces.length) {
    const out: HighlightPiece[] = [];
    let count = 0;
    let last = piece;
    let complete = false;
    while (piece < pieces.length && !complete) {
      const p = pieces[piece]!;
      let end = p.text.length;
      for (let i = p.text.indexOf('\n', offset); i !== -1; i = p.text.indexOf('\n', i + 1)) {
        if (++count === CODE_LINES) {
          end = i + 1;
          complete = true;
          break;
        }
      }
      out.push(offset === 0 && end === p.text.length ? p : { text: p.text.slice(offset, end), kind: p.kind });
      last = piece;
      if (end === p.text.length) {
        piece++;
        offset = 0;
      } else offset = end;
    }
    runs.push({ pieces: out, lastPiece: last, nextPiece: piece, nextOffset: offset, complete });
  }
  return { runs, reused };
}

/** Plain code as pieces of one line each, kept between calls like a highlighter's run. */
export interface PlainLines {
  code: string;
  pieces: HighlightPiece[];
  /** Pieces that are the very objects of the previous call's. */
  kept: number;
}

/**
 * Plain code (no grammar, or too long to highlight) as one piece per line, for `groupLines`. When
 * `code` extends `previous.code`, every line but the previous last is kept.
 *
 * @example splitPlainLines(null, 'a\nb').pieces // [{ text: 'a\n', kind: null }, { text: 'b', kind: null }]
 */
export function splitPlainLines(previous: PlainLines | null, code: string): PlainLines {
  let kept = 0;
  let from = 0;
  if (previous && code.length >= previous.code.length && previous.pieces.length > 0 && code.slice(0, previous.code.length) === previous.code) {
    kept = previous.pieces.length - 1;
    from = previous.code.length - previous.pieces[kept]!.text.length;
  }
  const pieces = previous && kept > 0 ? previous.pieces.slice(0, kept) : [];
  while (from < code.length) {
    const end = code.indexOf('\n', from);
    const to = end === -1 ? code.length : end + 1;
    pieces.push({ text: code.slice(from, to), kind: null });
    from = to;
  }
  return { code, pieces, kept };
}
