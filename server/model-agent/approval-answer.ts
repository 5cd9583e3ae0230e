/**
 * A user message that only answers an approval (Approve / Reject on a tool call): agentbar records
 * it in the chat between the steps of one reply. It is neither a task nor a turn for the model; the
 * call it answers already tells how it went.
 */
import type { Message } from '../../shared/schemas.ts';

/**
 * Whether `message` is the user's answer to an approval and nothing else.
 *
 * @example isApprovalAnswer({ role: 'user', content: [{ type: 'tool-approval-response', toolCallId: 'call_1', approved: true }], … }) // true
 */
export function isApprovalAnswer(message: Message): boolean {
  return message.role === 'user' && message.content.length > 0 && message.content.every((p) => p.type === 'tool-approval-response');
}
