/**
 * What an agent wrote to stderr, kept to explain a failure, in bounded memory: the last few KB and
 * the first line that read as an error (which a long backtrace after it pushes out of the tail).
 */
import { isErrorLine, summarizeStderr } from './summarize-stderr.ts';

const TAIL_CHARS = 4_000;
/** The part of a line read for an error: a line longer than this is a dump, not an error line. */
const MAX_SCANNED_LINE = 1_000;
/** An error line followed by this much more output no longer explains a failure: a later one may. */
const ERROR_WINDOW_CHARS = 64_000;

/** One process's stderr, as much as explains its failure. */
export class StderrRecord {
  private tail = '';
  private seen = 0;
  private firstError: { line: string; at: number } | null = null;
  /** The start of the line being written, not yet ended. */
  private partial = '';

  /**
   * Keeps a chunk of stderr.
   *
   * @example record.add('Error: error loading config: …\n');
   */
  add(chunk: string): void {
    this.seen += chunk.length;
    this.tail = (this.tail + chunk).slice(-TAIL_CHARS);
    if (this.firstError && this.seen - this.firstError.at > ERROR_WINDOW_CHARS) this.firstError = null;
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop()!.slice(0, MAX_SCANNED_LINE);
    if (this.firstError) return;
    const line = lines.find((l) => isErrorLine(l.slice(0, MAX_SCANNED_LINE)));
    if (line !== undefined) this.firstError = { line: line.slice(0, MAX_SCANNED_LINE), at: this.seen };
  }

  /** Forgets it all (the process starts again). */
  clear(): void {
    this.tail = '';
    this.seen = 0;
    this.firstError = null;
    this.partial = '';
  }

  /** All that is kept, to look for known causes in. */
  get text(): string {
    return this.firstError ? `${this.firstError.line}\n${this.tail}` : this.tail;
  }

  /**
   * What the user reads of it, on one line; '' when nothing is worth showing.
   *
   * @example record.summarize() // 'Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string'
   */
  summarize(o: { answered?: boolean } = {}): string {
    const unended = isErrorLine(this.partial) ? this.partial : null;
    return summarizeStderr({ firstError: this.firstError?.line ?? unended, tail: this.tail, cutAtStart: this.seen > this.tail.length, answered: o.answered === true });
  }
}
