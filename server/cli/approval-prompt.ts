/**
 * A tool call's approval on a terminal: the question, with the agent's own words for its answers
 * when it gave them (Codex: "Yes, and don't ask again for commands that start with `npm test`"), and
 * what a typed line answers. `agentbar chat -m` and the interactive chat ask the same way.
 */
import type { ToolCallPart } from '../../shared/schemas.ts';
import type { ApprovalReply } from './chat-turn.ts';

/**
 * The question for a call awaiting approval, ending with a space for the answer.
 *
 * @example describeApprovalQuestion(call) // 'Approve get_selected_elements {}? [y = approve, Enter = reject, or type a reason to reject] '
 */
export function describeApprovalQuestion(call: ToolCallPart): string {
  const what = call.title && call.title !== call.toolName ? `${call.title} (${call.toolName})` : call.toolName;
  const labels = call.approvalLabels;
  const word = (label: string | undefined, fallback: string) => (label ? JSON.stringify(label) : fallback);
  const keys = [`y = ${word(labels?.approve, 'approve')}`];
  if (call.alwaysOffered) keys.push(`a = ${word(labels?.always, 'always allow')}`);
  keys.push(`Enter = ${word(labels?.reject, 'reject')}`);
  return `Approve ${what} ${JSON.stringify(call.input)}? [${keys.join(', ')}, or type a reason to reject] `;
}

/**
 * What a line typed at that question answers: y approves, a approves for good (only where the agent
 * offers it; elsewhere it is a reason like any other), an empty line or n rejects, anything else
 * rejects with it as the reason.
 *
 * @example readApprovalAnswer('a', { ...call, alwaysOffered: true }) // { approved: true, always: true }
 */
export function readApprovalAnswer(typed: string, call: Pick<ToolCallPart, 'alwaysOffered'>): ApprovalReply {
  const a = typed.trim();
  if (/^(y|yes)$/i.test(a)) return { approved: true };
  if (call.alwaysOffered && /^(a|always)$/i.test(a)) return { approved: true, always: true };
  return a && !/^(n|no)$/i.test(a) ? { approved: false, reason: a } : { approved: false };
}
