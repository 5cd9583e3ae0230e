/**
 * A tool call's approval on a terminal: the agent's question and the call it asks about (never its
 * raw input), with the agent's own words for its answers when it gave them (Codex: "Yes, and don't
 * ask again for commands that start with `npm test`"), and what a typed line answers. `agentbar chat -m` and the interactive chat ask the same way.
 */
import { isAllowingOption, orderApprovalOptions } from '../../shared/approval-options.ts';
import type { ApprovalOption, ToolCallPart } from '../../shared/schemas.ts';
import type { ApprovalReply } from './chat-turn.ts';
import { describeAgentWords, describeToolCall, type DescribeOptions } from './terminal/describe-tool-call.ts';

/**
 * The question for a call awaiting approval, ending with a space for the answer: what the agent
 * says about it (its own question, where it asks one) on the lines before, then the call as
 * `describeToolCall` names it and the keys that answer.
 *
 * @example describeApprovalQuestion(call) // 'Approve get_selected_elements? [y = approve, Enter = reject, or type a reason to reject] '
 */
export function describeApprovalQuestion(call: ToolCallPart, options: DescribeOptions = {}): string {
  const words = describeAgentWords(call);
  const label = describeToolCall(call, options);
  const question = `Approve ${label}${label.endsWith('?') ? '' : '?'}`;
  return `${words ? `${words}\n` : ''}${question} [${describeAnswerKeys(call).join(', ')}, or type a reason to reject] `;
}

/** The keys that answer, each with the agent's words for it where it gave them. */
function describeAnswerKeys(call: ToolCallPart): string[] {
  const options = optionsToNumber(call);
  if (options) {
    // Each of the agent's options by number, in the toolbar's order; Enter is its first no.
    const firstReject = options.find((o) => !isAllowingOption(o));
    const keys = options.map((o, i) => `${i + 1}${o === firstReject ? ' or Enter' : ''} = ${JSON.stringify(o.label)}`);
    if (!firstReject) keys.push('Enter = reject');
    return keys;
  }
  const labels = call.approvalLabels;
  const word = (label: string | undefined, fallback: string) => (label ? JSON.stringify(label) : fallback);
  const keys = [`y = ${word(labels?.approve, 'approve')}`];
  if (call.alwaysOffered) keys.push(`a = ${word(labels?.always, 'always allow')}`);
  keys.push(`Enter = ${word(labels?.reject, 'reject')}`);
  return keys;
}

/**
 * What a line typed at that question answers: y approves, a approves for good (only where the agent
 * offers it; elsewhere it is a reason like any other), an empty line or n rejects, anything else
 * rejects with it as the reason. Where the agent offers two options of a kind (two "always"), a
 * number chooses one, and a rejection is its first no.
 *
 * @example readApprovalAnswer('a', { ...call, alwaysOffered: true }) // { approved: true, always: true }
 */
export function readApprovalAnswer(typed: string, call: Pick<ToolCallPart, 'alwaysOffered' | 'approvalOptions'>): ApprovalReply {
  const a = typed.trim();
  const numbered = optionsToNumber(call);
  if (numbered) return readOptionAnswer(a, numbered);
  if (/^(y|yes)$/i.test(a)) return { approved: true };
  if (call.alwaysOffered && /^(a|always)$/i.test(a)) return { approved: true, always: true };
  return a && !/^(n|no)$/i.test(a) ? { approved: false, reason: a } : { approved: false };
}

/**
 * The agent's options, numbered, where y, a and Enter cannot tell them apart (two of one kind:
 * Claude Code's "bypass permissions" and "auto-accept edits"); else null, and the keys ask.
 */
function optionsToNumber(call: Pick<ToolCallPart, 'approvalOptions'>): ApprovalOption[] | null {
  const options = call.approvalOptions;
  if (!options || new Set(options.map((o) => o.kind)).size === options.length) return null;
  return orderApprovalOptions(options);
}

function readOptionAnswer(typed: string, options: readonly ApprovalOption[]): ApprovalReply {
  const chosen = /^\d+$/.test(typed) ? options[Number(typed) - 1] : undefined;
  if (chosen) return { approved: isAllowingOption(chosen), optionId: chosen.id };
  // y and a still answer as they do without options, where they name one option: with two kinds of
  // "always" (one of them "bypass permissions"), a habit's a must not pick one; it is a reason then.
  const only = (kinds: readonly string[]) => {
    const matching = options.filter((o) => kinds.includes(o.kind));
    return matching.length === 1 ? matching[0] : undefined;
  };
  const allow = /^(y|yes)$/i.test(typed) ? (options.find((o) => o.kind === 'allow_once') ?? only(['allow_once', 'allow_always'])) : /^(a|always)$/i.test(typed) ? only(['allow_always']) : undefined;
  if (allow) return { approved: true, optionId: allow.id };
  const reject = options.find((o) => !isAllowingOption(o));
  const reply: ApprovalReply = reject ? { approved: false, optionId: reject.id } : { approved: false };
  if (typed && !/^(n|no)$/i.test(typed)) reply.reason = typed;
  return reply;
}
