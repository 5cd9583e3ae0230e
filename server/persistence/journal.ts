/**
 * The journal, `chats/<id>.journal`: append-only, one JSON line per write,
 * `{"g":GEN,"info"?:ChatInfo,"ops"?:Op[]}`, where `ops` are relative to the chat's messages array
 * and `info` is present when the chat's info changed. Lines of another generation than the chat
 * file's are stale (see chat-file-format.ts). A torn last line (a write cut by a crash) is ignored;
 * replay stops at any other line that does not parse.
 */
import * as v from 'valibot';
import { ChatInfoSchema, OpSchema } from '../../shared/schemas.ts';
import type { ChatInfo, Op } from '../../shared/schemas.ts';

const JournalLineSchema = v.object({
  g: v.string(),
  info: v.optional(ChatInfoSchema),
  ops: v.optional(v.array(OpSchema)),
});

/**
 * One journal line. `info` comes before `ops` so the index can find the latest info by looking at
 * line starts only (see `findLatestInfo`).
 */
export function encodeJournalLine(gen: string, info: ChatInfo | undefined, opsJson: string | undefined): string {
  let line = `{"g":${JSON.stringify(gen)}`;
  if (info) line += `,"info":${JSON.stringify(info)}`;
  if (opsJson) line += `,"ops":[${opsJson}]`;
  return line + '}\n';
}

export interface ParsedJournal {
  /** Op batches of the current generation, in order, up to the first damaged line. */
  batches: Op[][];
  /** The last info of the current generation among those lines, if any had one. */
  info: ChatInfo | null;
  /** True when the file ends in an unfinished line: the write a crash cut short. */
  tornTail: boolean;
  /**
   * Lines from the first one that does not parse (other than a torn tail) to the end: damage from
   * outside. Nothing after such a line is replayed, since its ops may depend on the lost ones.
   */
  damaged: number;
  /** Lines of another generation. */
  stale: number;
}

/** Reads a journal's lines of generation `gen`. Never throws. */
export function parseJournal(text: string, gen: string): ParsedJournal {
  const out: ParsedJournal = { batches: [], info: null, tornTail: false, damaged: 0, stale: 0 };
  const lines = text.split('\n');
  // After a final newline split() yields '', otherwise the last element is an unfinished line.
  const unfinished = lines.pop() ?? '';
  if (unfinished !== '') lines.push(unfinished);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const parsed = parseLine(line);
    if (!parsed) {
      // A line cut right before its newline is still whole; anything shorter is a torn write.
      if (unfinished !== '' && i === lines.length - 1) out.tornTail = true;
      else out.damaged = lines.slice(i).filter((l) => l !== '').length;
      break;
    }
    if (parsed.g !== gen) out.stale++;
    else {
      if (parsed.info) out.info = parsed.info;
      if (parsed.ops && parsed.ops.length > 0) out.batches.push(parsed.ops);
    }
  }
  return out;
}

/**
 * How to make a journal end cleanly before appending to it: the byte length to truncate it to (a
 * torn last line is dropped), `'newline'` when its last line is whole but lacks the newline, or
 * null when it already ends with one.
 */
export function planTailRepair(content: Buffer): number | 'newline' | null {
  if (content.length === 0 || content[content.length - 1] === 0x0a) return null;
  const start = content.lastIndexOf(0x0a) + 1;
  return parseLine(content.subarray(start).toString('utf8')) ? 'newline' : start;
}

function parseLine(line: string): v.InferOutput<typeof JournalLineSchema> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = v.safeParse(JournalLineSchema, raw);
  return parsed.success ? parsed.output : null;
}

/**
 * The latest info of generation `gen` in a journal, parsing only lines that start with it (ops
 * lines, possibly large, are skipped unparsed).
 */
export function findLatestInfo(text: string, gen: string): ChatInfo | null {
  const prefix = `{"g":${JSON.stringify(gen)},"info":`;
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (text.startsWith(prefix, start)) {
      const parsed = parseLine(text.slice(start, end));
      if (parsed?.info) return parsed.info;
    }
    end = start - 1;
  }
  return null;
}
