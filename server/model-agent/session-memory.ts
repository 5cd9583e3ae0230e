/**
 * Session memory: a rolling record of the chat's finished tasks (what was asked, who answered,
 * how it ended, the reply's final text clipped), computed from the chat itself. The chat is on
 * disk already, so the memory survives restarts and every client sees the same one, with no second
 * store to keep in step. Bounded three ways: the most recent `entries`, each summary clipped to
 * `summaryChars`, and the whole JSON under `totalChars` (oldest dropped first).
 */
import type { AssistantMessage, Message } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';
import { isApprovalAnswer } from './approval-answer.ts';

export interface MemoryOptions {
  /** Most recent finished tasks kept. Default 12. */
  entries?: number;
  /** Each summary (and task text) clipped to this many characters. Default 280. */
  summaryChars?: number;
  /** The memory's JSON is at most this long in the prompt. Default 3,000. */
  totalChars?: number;
}

export const DEFAULT_MEMORY = { entries: 12, summaryChars: 280, totalChars: 3_000 } as const;

export interface MemoryEntry {
  /** The user's request. */
  task: string;
  /** The agent that answered. */
  agent: string;
  /** The id of the reply's last message (a reply paused for tool calls spans several). */
  messageId: string;
  status: string;
  /** The reply's final text, clipped. */
  summary: string;
  /** When the reply's first message started (ms since epoch). */
  at: number;
}

function textOf(message: Message): string {
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n');
}

function lastText(replies: readonly AssistantMessage[]): string | undefined {
  return replies.flatMap((r) => r.content.flatMap((p) => (p.type === 'text' ? [p.text] : []))).at(-1);
}

/**
 * The finished tasks of `messages`, newest last, within the bounds.
 *
 * @example const entries = buildSessionMemory(ctx.messages.slice(0, -1));
 */
export function buildSessionMemory(messages: readonly Message[], options: MemoryOptions = {}): MemoryEntry[] {
  const max = { ...DEFAULT_MEMORY, ...options };
  const entries: MemoryEntry[] = [];
  for (let i = 0; i < messages.length; i++) {
    const ask = messages[i]!;
    if (ask.role !== 'user' || isApprovalAnswer(ask)) continue;
    // The task's reply: its assistant messages up to the next task (a reply paused for an approval
    // goes on in a new message after the answer), ended when the last of them is.
    const replies: AssistantMessage[] = [];
    for (let j = i + 1; j < messages.length; j++) {
      const m = messages[j]!;
      if (m.role === 'user' && !isApprovalAnswer(m)) break;
      if (m.role === 'assistant') replies.push(m);
    }
    const first = replies[0];
    const end = replies[replies.length - 1];
    if (!first || !end || end.status === 'streaming') continue;
    // The final text: the last text part, where a model puts its answer after tool calls; a last
    // message without text says how it ended by its error, if any.
    const final = lastText([end]) ?? end.error ?? lastText(replies) ?? '';
    entries.push({ task: truncateLine(textOf(ask), max.summaryChars), agent: first.agent, messageId: end.id, status: end.status, summary: truncateLine(final, max.summaryChars), at: first.createdAt });
  }
  const recent = entries.slice(-max.entries);
  while (recent.length > 0 && JSON.stringify(recent).length > max.totalChars) recent.shift();
  return recent;
}
