/**
 * Writes one run's reply into its chat as ops: opens and ends assistant messages, adds parts,
 * appends streamed text to the last part. Everything the agent writes is checked here first:
 * a part the schema refuses would make every snapshot invalid and the chat file unreadable.
 */
import * as v from 'valibot';
import { boundedArray } from '../../shared/bounded-array.ts';
import { describeIssues } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { makeId } from '../../shared/ids.ts';
import { AssistantPartSchema, PlanEntrySchema, type AssistantMessage, type AssistantPart, type Notice, type Op, type PlanEntry } from '../../shared/schemas.ts';
import type { NoticeInput, TextSource } from '../sdk/agent.ts';
import type { ChatManager } from './chats.ts';
import { truncateLine } from '../../shared/truncate.ts';
import { describeError } from './describe-error.ts';
import { toJsonValue } from './to-json-value.ts';
import { messagePath } from './state-paths.ts';

/** The most text one run may stream (all its messages together). */
export const MAX_REPLY_CHARS = 8_000_000;

export interface ReplyWriterOptions {
  chats: ChatManager;
  chatId: string;
  agentId: string;
  now: () => number;
  /** Throws when the run was stopped, so an agent still streaming stops at its next write. */
  assertLive: () => void;
  /** The message being written changed (null: none until the next write). */
  onMessage: (messageId: string | null) => void;
}

export class ReplyWriter {
  /** Index of the assistant message being written, or null between steps. */
  messageIndex: number | null = null;
  /** Whether this run has written any message yet. */
  wroteAny = false;
  private parts = 0;
  private lastPart: { type: 'text' | 'reasoning'; index: number } | null = null;
  /** Text and reasoning characters written by this run. */
  private chars = 0;
  /** The message that shows this run's plan, if any. */
  private planIndex: number | null = null;
  /** How many notices each message of this run shows, by message index. */
  private readonly notices = new Map<number, number>();
  /** The reasoning part being written and when it started: its duration is recorded when it ends. */
  private reasoning: { messageIndex: number; partIndex: number; at: number } | null = null;

  constructor(private readonly o: ReplyWriterOptions) {}

  /** The open message's index, opening a new streaming message when none is open. */
  openMessage(): number {
    if (this.messageIndex !== null) return this.messageIndex;
    const message: AssistantMessage = {
      id: makeId('msg'),
      role: 'assistant',
      agent: this.o.agentId,
      content: [],
      status: 'streaming',
      createdAt: this.o.now(),
    };
    const index = this.o.chats.addMessage(this.o.chatId, message);
    this.wroteAny = true;
    this.messageIndex = index;
    this.parts = 0;
    this.lastPart = null;
    this.o.onMessage(message.id);
    return index;
  }

  /** Ends the open message (if any) with `status`; the next write opens a new one. */
  endMessage(status: AssistantMessage['status'], error?: string): void {
    const index = this.messageIndex;
    if (index === null) return;
    this.endReasoning();
    const ops: Op[] = [{ op: 'replace', path: messagePath.status(index), value: status }];
    if (error !== undefined) ops.push({ op: 'add', path: messagePath.error(index), value: error });
    this.o.chats.edit(this.o.chatId, ops, { urgent: true });
    this.o.chats.touch(this.o.chatId);
    this.messageIndex = null;
    this.lastPart = null;
    this.o.onMessage(null);
  }

  /** Checks a part the agent wrote and adds it to the open message. */
  addPart(input: AssistantPart): { messageIndex: number; partIndex: number } {
    const part = checkPart(input);
    this.ensureRoom(Buffer.byteLength(JSON.stringify(part), 'utf8'));
    const messageIndex = this.openMessage();
    this.endReasoning();
    this.o.chats.edit(this.o.chatId, [{ op: 'add', path: messagePath.partsEnd(messageIndex), value: part }]);
    const partIndex = this.parts++;
    if (part.type === 'reasoning') this.reasoning = { messageIndex, partIndex, at: this.o.now() };
    this.lastPart = part.type === 'text' || part.type === 'reasoning' ? { type: part.type, index: partIndex } : null;
    return { messageIndex, partIndex };
  }

  /** Adds a part the server made (a backend tool's result) to a message of this run, open or ended. */
  addServerPart(messageIndex: number, part: AssistantPart): void {
    this.endReasoning();
    this.o.chats.edit(this.o.chatId, [{ op: 'add', path: messagePath.partsEnd(messageIndex), value: part }]);
    if (this.messageIndex === messageIndex) this.parts++;
    this.lastPart = null;
  }

  /** Appends streamed text: to the last part when it is of the same kind, else as a new part. */
  appendText(type: 'text' | 'reasoning', chunk: string): void {
    this.o.assertLive();
    if (chunk === '') return;
    // Clients must hold the whole active chat in one snapshot: one reply may not grow without end.
    // A refused chunk is not counted: an agent that catches the refusal may still write less.
    if (this.chars + chunk.length > MAX_REPLY_CHARS) throw new Error(`The reply is over ${MAX_REPLY_CHARS.toLocaleString('en')} characters; the agent was stopped`);
    this.chars += chunk.length;
    if (this.messageIndex !== null && this.lastPart?.type === type) {
      this.ensureRoom(Buffer.byteLength(chunk, 'utf8'));
      this.o.chats.edit(this.o.chatId, [{ op: 'append', path: messagePath.partText(this.messageIndex, this.lastPart.index), value: chunk }]);
    } else {
      this.addPart({ type, text: chunk });
    }
  }

  /**
   * Shows the plan on the run's open message (opening one when none is): it moves there when the
   * reply has gone on, so the checklist stays beside the newest text.
   */
  setPlan(entries: PlanEntry[]): void {
    this.o.assertLive();
    let copy: unknown;
    try {
      copy = toJsonValue(entries);
    } catch (error) {
      throw new Error(`The agent wrote a plan that is not JSON: ${describeError(error)}`);
    }
    const parsed = v.safeParse(boundedArray(PlanEntrySchema, LIMITS.maxPlanEntries), copy);
    if (!parsed.success) throw new Error(`The agent wrote an invalid plan: ${describeIssues(parsed.issues).message}`);
    this.ensureRoom(Buffer.byteLength(JSON.stringify(copy), 'utf8'));
    const target = this.messageIndex ?? this.openMessage();
    const ops: Op[] = [];
    if (this.planIndex !== null && this.planIndex !== target) ops.push({ op: 'remove', path: messagePath.plan(this.planIndex) });
    ops.push({ op: 'add', path: messagePath.plan(target), value: copy });
    this.planIndex = target;
    this.o.chats.edit(this.o.chatId, ops, { urgent: true });
  }

  /**
   * Adds a notice to the run's open message (opening one when none is): title on one line and
   * clipped, description clipped, an unknown severity shown as `info`. Past LIMITS.maxNotices on
   * one message the rest are dropped (a notice may go unseen; ACP says so too). Returns whether it
   * was added.
   */
  addNotice(input: NoticeInput): boolean {
    this.o.assertLive();
    const notice = toNotice(input);
    const target = this.messageIndex ?? this.openMessage();
    const count = this.notices.get(target) ?? 0;
    if (count >= LIMITS.maxNotices) return false;
    this.ensureRoom(Buffer.byteLength(JSON.stringify(notice), 'utf8'));
    const op: Op = count === 0 ? { op: 'add', path: messagePath.notices(target), value: [notice] } : { op: 'add', path: messagePath.noticesEnd(target), value: notice };
    this.o.chats.edit(this.o.chatId, [op], { urgent: true });
    this.notices.set(target, count + 1);
    return true;
  }

  /** The reasoning part being written is over: record how long it took. */
  private endReasoning(): void {
    const r = this.reasoning;
    if (!r) return;
    this.reasoning = null;
    this.o.chats.edit(this.o.chatId, [{ op: 'add', path: messagePath.partField(r.messageIndex, r.partIndex, 'durationMs'), value: Math.max(0, this.o.now() - r.at) }]);
  }

  /** The whole chat goes in one snapshot: a reply stops where the chat is full. */
  private ensureRoom(bytes: number): void {
    if (this.o.chats.hasRoom(this.o.chatId, bytes)) return;
    const max = Math.round(LIMITS.maxChatBytes / (1024 * 1024));
    throw new Error(`This chat is full (${max} MiB, the most one chat holds), so the reply was stopped; start a new chat to go on`);
  }

  /** Streams a string or a (sync or async) iterable of strings. */
  async streamText(type: 'text' | 'reasoning', source: TextSource): Promise<void> {
    if (typeof source === 'string') {
      this.appendText(type, source);
      return;
    }
    if (Symbol.asyncIterator in source) {
      for await (const chunk of source as AsyncIterable<string>) this.appendText(type, String(chunk));
    } else {
      for (const chunk of source as Iterable<string>) this.appendText(type, String(chunk));
    }
    this.o.assertLive();
  }
}

/** Validates a part the agent wrote and returns a JSON copy of it, or throws a clear error. */
function checkPart(part: AssistantPart): AssistantPart {
  let copy: unknown;
  try {
    copy = toJsonValue(part);
  } catch (error) {
    throw new Error(`The agent wrote a ${String((part as { type?: unknown })?.type)} part that is not JSON: ${describeError(error)}`);
  }
  const parsed = v.safeParse(AssistantPartSchema, copy);
  if (!parsed.success) {
    throw new Error(`The agent wrote an invalid ${String((part as { type?: unknown })?.type)} part: ${describeIssues(parsed.issues).message}`);
  }
  return copy as AssistantPart;
}

const SEVERITIES = new Set(['info', 'warning', 'error']);

/** A notice as the state holds it, or a clear error for one without a title. */
function toNotice(input: NoticeInput): Notice {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const title = typeof raw.title === 'string' ? truncateLine(raw.title, LIMITS.maxNoticeTitleLength) : '';
  if (!title) throw new Error('The agent wrote a notice without a title');
  const severity = typeof raw.severity === 'string' && SEVERITIES.has(raw.severity) ? raw.severity : 'info';
  const notice: Notice = { severity, title };
  if (typeof raw.description === 'string' && raw.description.trim()) {
    const text = raw.description.trim();
    notice.description = text.length > LIMITS.maxNoticeDescriptionLength ? `${text.slice(0, LIMITS.maxNoticeDescriptionLength - 1)}…` : text;
  }
  return notice;
}
