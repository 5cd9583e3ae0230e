/**
 * The chat file, `chats/<id>.jsonl`: line 1 is the header `{"v":1,"gen":G,"info":ChatInfo}`, then one
 * Message per line. Reading the index needs the first line only. `gen` names this version of the
 * file: journal lines written against another generation are ignored on replay, so a crash between
 * a compaction and the journal's removal cannot apply the same ops twice.
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { ChatInfoSchema, MessageSchema } from '../../shared/schemas.ts';
import type { ChatInfo, Message } from '../../shared/schemas.ts';
import { migrateHeader, migrateMessage } from './migrate.ts';

export const CHAT_FORMAT_VERSION = 1;

const HeaderSchema = v.object({
  v: v.literal(CHAT_FORMAT_VERSION),
  gen: v.pipe(v.string(), v.maxLength(64)),
  info: ChatInfoSchema,
});
export type ChatHeader = v.InferOutput<typeof HeaderSchema>;

/** A new random generation name: 48 bits, so two compactions of a chat never share one. */
export function makeGeneration(): string {
  return randomBytes(6).toString('base64url');
}

/** Serializes a whole chat file. */
export function encodeChatFile(info: ChatInfo, messages: readonly Message[], gen: string): string {
  const header: ChatHeader = { v: CHAT_FORMAT_VERSION, gen, info };
  let out = JSON.stringify(header) + '\n';
  for (const message of messages) out += JSON.stringify(message) + '\n';
  return out;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string; newer?: boolean };

function describe(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const at = v.getDotPath(issue);
  return at ? `${at}: ${issue.message}` : issue.message;
}

/** Parses and validates a header line; `newer` marks a file from a later version (left alone). */
export function parseHeader(line: string, chatId: string): ParseResult<ChatHeader> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'header is not JSON' };
  }
  const version = (raw as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && version > CHAT_FORMAT_VERSION) {
    return { ok: false, reason: `written by a newer version (format ${version})`, newer: true };
  }
  const parsed = v.safeParse(HeaderSchema, migrateHeader(raw));
  if (!parsed.success) return { ok: false, reason: `header ${describe(parsed.issues)}` };
  if (parsed.output.info.id !== chatId) return { ok: false, reason: `header names chat ${parsed.output.info.id}` };
  return { ok: true, value: parsed.output };
}

/** Parses and validates one stored message, migrating older shapes first. */
export function parseMessage(raw: unknown): ParseResult<Message> {
  const parsed = v.safeParse(MessageSchema, migrateMessage(raw));
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, reason: describe(parsed.issues) };
}

/**
 * Parses a whole chat file. Every line must be valid: the file is written atomically, so a bad line
 * means damage from outside, and the caller moves the file aside rather than guess.
 */
export function parseChatFile(text: string, chatId: string): ParseResult<{ header: ChatHeader; messages: Message[] }> {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const header = parseHeader(lines[0] ?? '', chatId);
  if (!header.ok) return header;
  const messages: Message[] = [];
  for (let i = 1; i < lines.length; i++) {
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]!);
    } catch {
      return { ok: false, reason: `line ${i + 1} is not JSON` };
    }
    const message = parseMessage(raw);
    if (!message.ok) return { ok: false, reason: `line ${i + 1}: ${message.reason}` };
    messages.push(message.value);
  }
  return { ok: true, value: { header: header.value, messages } };
}
