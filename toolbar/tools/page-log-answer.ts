/**
 * What the three page-log tools (console, errors, failed requests) share: reading the capture,
 * saying since when it records, and keeping the newest entries with counts of the rest.
 */
import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import type { RingBuffer } from '../page/page-capture.ts';
import { readPageLog, type PageLogSnapshot } from '../page/read-page-log.ts';
import { toolError, type ToolContext, type ToolOutcome } from './tool-context.ts';

/** An ISO time, which reads better to an agent than epoch milliseconds. */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'unknown' : date.toISOString();
}

/**
 * Since when the page has been captured, in words: from its start (the early script) or only
 * from the toolbar's (a page that loads the toolbar with a plain script tag).
 *
 * @example describeCapture({ startedBy: 'toolbar', startedAt: 0, … }) // 'since the toolbar loaded at 1970-01-01T00:00:00.000Z; …'
 */
export function describeCapture(log: Pick<PageLogSnapshot, 'startedAt' | 'startedBy'>): string {
  const at = isoTime(log.startedAt);
  return log.startedBy === 'page'
    ? `since the page started loading (${at})`
    : `since the toolbar loaded at ${at}; what the page said before then is not here (the page has no agentbar capture script: the Vite plugin adds it)`;
}

/**
 * Runs a log tool: checks `input` against `schema`, reads the capture, and hands both to `answer`;
 * bad input or a page without a capture becomes an error result.
 *
 * @example runLogTool(input, ctx, InputSchema, (opts, log) => ({ output: … }))
 */
export function runLogTool<S extends v.GenericSchema>(
  input: Record<string, unknown>,
  ctx: ToolContext,
  schema: S,
  answer: (options: v.InferOutput<S>, log: PageLogSnapshot) => ToolOutcome,
): ToolOutcome {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
  const log = ctx.pageLog ? readPageLog(ctx.pageLog) : null;
  if (typeof log === 'string') return toolError(log);
  if (!log) return toolError('Nothing was captured on this page: the page replaced or removed what agentbar records');
  return answer(parsed.output, log);
}

/**
 * The newest `limit` entries (newest last), shown with `show`, and how many were left out.
 *
 * @example newestEntries([1, 2, 3], 2, String) // { shown: ['2', '3'], omitted: 1 }
 */
export function newestEntries<T, U>(entries: readonly T[], limit: number, show: (entry: T) => U): { shown: U[]; omitted: number } {
  const kept = entries.slice(Math.max(0, entries.length - limit));
  return { shown: kept.map(show), omitted: entries.length - kept.length };
}

/**
 * The answer of a log tool: since when the page is captured, the newest `limit` entries of
 * `buffer` under `key` (newest last), and the counts of the older ones left out or lost.
 *
 * @example answerNewest(log, log.errors, 20, 'errors', showError) // { output: { capturing, count, errors, omitted, dropped } }
 */
export function answerNewest<T, U>(log: PageLogSnapshot, buffer: RingBuffer<T>, limit: number, key: string, show: (entry: T) => U): ToolOutcome {
  const { shown, omitted } = newestEntries(buffer.entries, limit, show);
  return { output: { capturing: describeCapture(log), count: shown.length, [key]: shown, omitted, dropped: buffer.dropped } };
}

/** A `limit` input between 1 and `max`. */
export function limitSchema(max: number) {
  return v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)));
}
