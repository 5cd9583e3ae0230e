/**
 * Session memory: a rolling record of the chat's finished tasks (what was asked, who answered,
 * how it ended, the reply's final text clipped), computed from the chat itself. The chat is on
 * disk already, so the memory survives restarts and every client sees the same one, with no second
 * store to keep in step. Bounded three ways: the most recent `entries`, each summary clipped to
 * `summaryChars`, and the whole JSON under `totalChars` (oldest dropped first).
 */
import type { Message } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';

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
  /** The reply's message id. */
  messageId: string;
  status: string;
  /** The reply's final text, clipped. */
  summary: string;
  /** When the reply started (ms since epoch). */
  at: number;
}

function textOf(message: Message): string {
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n');
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
    if (ask.role !== 'user') continue;
    // The task's reply: the first assistant message before the next user message.
    for (let j = i + 1; j < messages.length && messages[j]!.role !== 'user'; j++) {
      const reply = messages[j]!;
      if (reply.role !== 'assistant') continue;
      if (reply.status !== 'streaming') {
        // The final text: the last text part, where a model puts its answer after tool calls.
        const texts = reply.content.filter((p) => p.type === 'text');
        const final = texts.length ? (texts[texts.length - 1] as { text: string }).text : reply.error ?? '';
        entries.push({ task: truncateLine(textOf(ask), max.summaryChars), agent: reply.agent, messageId: reply.id, status: reply.status, summary: truncateLine(final, max.summaryChars), at: reply.createdAt });
      }
      break;
    }
  }
  const recent = entries.slice(-max.entries);
  while (recent.length > 0 && JSON.stringify(recent).length > max.totalChars) recent.shift();
  return recent;
}
