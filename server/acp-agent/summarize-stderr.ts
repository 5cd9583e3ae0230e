/**
 * An agent's stderr as the account of a failure: the first line that reads as an error (Codex
 * prints its one real line before a long backtrace), then the last few lines, without backtrace
 * frames (Rust's `  7: <std::…>` and `at …`, Node's `    at …`) and with each multi-line object
 * dump (as ACP's SDK logs an error it answers) folded to its first line.
 */
import { truncateLine } from '../../shared/truncate.ts';

/** Longest line shown: an error line, not a dump. */
const MAX_LINE = 300;
/** Lines of the tail shown after the error line. */
const MAX_TAIL_LINES = 5;

const ERROR_LINE = /(^|[\s:])(\w*Error|error)(\[\w+\])?:\s|^\s*fatal\b|\bfatal:|panicked at|\bERROR\b/;
/** A backtrace frame or its header: no reason in it, only where the program was. */
const FRAME = /^\s+\d+:\s+\S|^\s+at\s|^\s*(stack )?backtrace:\s*$|^note: run with `RUST_BACKTRACE/i;
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** A dump opens with a line at the margin ending in `{` or `[`, and closes at the margin (`}`, or `} {` when a second one follows). */
const OPENS = /[{[]\s*$/;
const CLOSES = /^[}\]]/;
/** ACP's SDK logs each error it answers ("Error handling request {…} {…}"); the answer says it already. */
const ANSWER_LOG = /^Error handling (request|notification)\b/;

/**
 * True for a line that reads as an error: `Error: …`, `error: …`, `TypeError: …`, `fatal…`, a
 * Rust panic or an `ERROR` log line.
 *
 * @example isErrorLine('Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string') // true
 */
export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line.replace(ANSI, ''));
}

/**
 * The lines of stderr worth reading: colours, blank lines and backtrace frames dropped, object
 * dumps folded to `head {…}`, each line cut short. `cutAtStart` says the text starts mid-line
 * (the kept tail of longer output), so its first line, and a dump whose head was cut, go.
 *
 * @example readableLines("Error handling request {\n  id: 1\n} {\n  code: -32603\n}\nbye") // ['Error handling request {…} {…}', 'bye']
 */
export function readableLines(text: string, cutAtStart = false): string[] {
  const lines = text.replace(ANSI, '').split(/\r?\n/);
  if (cutAtStart) lines.shift();
  const out: string[] = [];
  // Inside a dump: one whose head is shown, or one whose head was cut (its first line at the margin closes it).
  let dump: 'none' | 'shown' | 'cut' = cutAtStart && CLOSES.test(lines.find((l) => /^\S/.test(l)) ?? '') ? 'cut' : 'none';
  for (const line of lines) {
    if (dump !== 'none') {
      if (!CLOSES.test(line)) continue;
      const reopens = OPENS.test(line);
      if (reopens && dump === 'shown') out[out.length - 1] += ` ${fold(line)}`;
      if (!reopens) dump = 'none';
      continue;
    }
    if (!line.trim() || FRAME.test(line)) continue;
    if (OPENS.test(line) && /^\S/.test(line)) {
      out.push([truncateLine(line.replace(OPENS, ''), MAX_LINE), fold(line)].filter(Boolean).join(' '));
      dump = 'shown';
      continue;
    }
    out.push(truncateLine(line, MAX_LINE));
  }
  return out;
}

/** What a folded dump reads as: `{…}` or `[…]`, as it opened. */
function fold(opening: string): string {
  return opening.trimEnd().endsWith('[') ? '[…]' : '{…}';
}

export interface StderrSummaryInput {
  /** The first line that read as an error, when the kept tail may no longer hold it. */
  firstError: string | null;
  /** The last of stderr. */
  tail: string;
  /** The tail starts mid-line: more came before it. */
  cutAtStart: boolean;
  /** The process is alive and answered with the error: its SDK's log of that answer is left out. */
  answered?: boolean;
}

/**
 * What the user reads of stderr, on one line: the first error line, then the lines after it
 * (` … ` between when some were left out); the last lines when none reads as an error; '' when
 * nothing is worth showing.
 *
 * @example summarizeStderr({ firstError: 'Error: error loading config: …', tail: '   8: start_thread\n', cutAtStart: true }) // 'Error: error loading config: …'
 */
export function summarizeStderr(input: StderrSummaryInput): string {
  const lines = readableLines(input.tail, input.cutAtStart).filter((l) => !(input.answered && ANSWER_LOG.test(l)));
  const first = input.firstError === null ? null : truncateLine(input.firstError.replace(ANSI, ''), MAX_LINE);
  const at = first === null ? -1 : lines.indexOf(first);
  if (at >= 0) return lines.slice(at, at + 1 + MAX_TAIL_LINES).join(' | ');
  const tail = lines.slice(-MAX_TAIL_LINES);
  if (first === null) return tail.join(' | ');
  return tail.length > 0 ? `${first} … ${tail.join(' | ')}` : first;
}
