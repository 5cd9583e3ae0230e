/**
 * Reads the page capture's buffers for the page-log tools (in `page-tools.js`). They live on the
 * page's `window`, where any script could change them, so each read checks every entry and drops
 * what does not fit.
 */
import * as v from 'valibot';
import { CONSOLE_LEVELS, PAGE_CAPTURE_VERSION, type ConsoleEntry, type NetworkFailureEntry, type PageErrorEntry, type RingBuffer } from './page-capture.ts';
import type { PageLogSource } from './page-log.ts';

const text = v.string();
const nullableText = v.nullable(v.string());
const nullableNumber = v.nullable(v.number());

const ConsoleEntrySchema = v.object({ level: v.picklist(CONSOLE_LEVELS), text, time: v.number() });
const PageErrorEntrySchema = v.object({ kind: v.picklist(['error', 'unhandledrejection']), message: text, stack: nullableText, file: nullableText, line: nullableNumber, column: nullableNumber, time: v.number() });
const NetworkFailureEntrySchema = v.object({ api: v.picklist(['fetch', 'xhr']), method: text, url: text, status: nullableNumber, statusText: nullableText, error: nullableText, start: v.number(), durationMs: v.number() });
const BufferShape = v.object({ entries: v.array(v.unknown()), dropped: v.number() });
const CaptureShape = v.object({
  version: v.literal(PAGE_CAPTURE_VERSION),
  startedAt: v.number(),
  startedBy: v.picklist(['page', 'toolbar']),
  console: BufferShape,
  errors: BufferShape,
  network: BufferShape,
});

/** What the page said so far, as the page tools report it. */
export interface PageLogSnapshot {
  startedAt: number;
  /** `page`: since the page began loading (the early script); `toolbar`: since the toolbar loaded. */
  startedBy: 'page' | 'toolbar';
  console: RingBuffer<ConsoleEntry>;
  errors: RingBuffer<PageErrorEntry>;
  network: RingBuffer<NetworkFailureEntry>;
}

/** Entries that still have their shape; the others count as dropped. */
function readBuffer<T>(buffer: { entries: unknown[]; dropped: number }, schema: v.GenericSchema<unknown, T>): RingBuffer<T> {
  const entries: T[] = [];
  let dropped = buffer.dropped;
  for (const entry of buffer.entries) {
    const parsed = v.safeParse(schema, entry);
    if (parsed.success) entries.push(parsed.output);
    else dropped++;
  }
  return { entries, dropped };
}

/**
 * A copy of the buffers now, without the toolbar's own requests; null when the page removed or
 * broke them; why nothing is captured when the capture has not started (yet).
 *
 * @example const log = readPageLog(ctx.pageLog); if (typeof log === 'string') return toolError(log);
 */
export function readPageLog(source: PageLogSource): PageLogSnapshot | string | null {
  const found = source.capture();
  const notStarted = found === undefined ? source.notStarted() : null;
  if (notStarted) return notStarted;
  const parsed = v.safeParse(CaptureShape, found);
  if (!parsed.success) return null;
  const capture = parsed.output;
  const network = readBuffer(capture.network, NetworkFailureEntrySchema);
  return {
    startedAt: capture.startedAt,
    startedBy: capture.startedBy,
    console: readBuffer(capture.console, ConsoleEntrySchema),
    errors: readBuffer(capture.errors, PageErrorEntrySchema),
    network: { entries: network.entries.filter((e) => !source.isOwnRequest(e.url)), dropped: network.dropped },
  };
}
