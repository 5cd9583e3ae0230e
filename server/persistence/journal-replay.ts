/**
 * Replays a journal's op batches onto the messages of its chat file, checking every message a
 * batch touched. A batch that does not apply, or leaves a message invalid, ends the replay: what
 * came before it is kept (its ops may depend on the lost ones).
 */
import { applyPatch } from '../../shared/patch.ts';
import type { Message, Op } from '../../shared/schemas.ts';
import { parseMessage } from './chat-file-format.ts';

/**
 * @example
 * const { messages, failed } = replayJournal(fileMessages, parseJournal(text, gen).batches);
 * if (failed) keepAside(journal, failed);
 */
export function replayJournal(messages: Message[], batches: readonly Op[][]): { messages: Message[]; failed: string | null } {
  let current = messages;
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    let next: Message[];
    try {
      next = applyPatch(current, batch);
    } catch (error) {
      return { messages: current, failed: `batch ${b + 1}: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!Array.isArray(next)) return { messages: current, failed: `batch ${b + 1}: replaced the messages` };
    // Only the messages a batch touched can have become invalid (all of them after a root op).
    const touched = new Set<number>();
    for (const op of batch) {
      const first = op.path.split('/')[1];
      if (first === undefined) next.forEach((_, i) => touched.add(i));
      else touched.add(first === '-' ? next.length - 1 : Number(first));
    }
    for (const i of touched) {
      if (!Number.isInteger(i) || i < 0 || i >= next.length) continue;
      const checked = parseMessage(next[i]);
      if (!checked.ok) return { messages: current, failed: `batch ${b + 1}: message ${i}: ${checked.reason}` };
      next[i] = checked.value;
    }
    current = next;
  }
  return { messages: current, failed: null };
}
