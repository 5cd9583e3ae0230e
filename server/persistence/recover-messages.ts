import type { Message } from '../../shared/schemas.ts';

/**
 * Marks what a dead process left open as `interrupted` (PROTOCOL §5): a `streaming` assistant
 * message, and every tool call still `awaiting-approval` or `running`, since no run survives a
 * restart to answer it (PROTOCOL §3: "No call stays awaiting-approval or running once no run can
 * answer it"). Mutates `messages` and returns how many messages changed.
 *
 * @example recoverInterrupted([{ …, role: 'assistant', status: 'streaming' }]) // 1, status 'interrupted'
 */
export function recoverInterrupted(messages: Message[]): number {
  let changed = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    let touched = false;
    if (message.status === 'streaming') {
      message.status = 'interrupted';
      touched = true;
    }
    for (const part of message.content) {
      if (part.type === 'tool-call' && (part.state === 'awaiting-approval' || part.state === 'running')) {
        part.state = 'interrupted';
        touched = true;
      }
    }
    if (touched) changed++;
  }
  return changed;
}
