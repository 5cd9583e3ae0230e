/**
 * `/approve` in the terminal chat, for a tool call waiting on the user (one another client's
 * message started, say): alone it approves once; `/approve <n>` gives the agent's answer numbered n,
 * as the transcript and the interactive question number them; `/approve always` the one "always"
 * on offer. Claude Code's plan exit offers two kinds of "always" ("bypass permissions" and
 * "auto-accept edits"): a bare `/approve always` there picks neither and says which numbers do.
 */
import { isAllowingOption, orderApprovalOptions } from '../../../shared/approval-options.ts';
import type { ApprovalOption, ToolCallPart } from '../../../shared/schemas.ts';
import type { ApprovalReply } from '../chat-turn.ts';

type WaitingCall = Pick<ToolCallPart, 'alwaysOffered' | 'approvalOptions' | 'approvalLabels'>;

/**
 * The answer `/approve <arg>` gives `call`, or why it gives none (a sentence to print).
 *
 * @example
 * readApproveCommand('2', planExit) // { approved: true, optionId: 'bypassPermissions' }
 * readApproveCommand('always', planExit) // 'Two answers allow always here: /approve 2 = "Yes, and bypass permissions" or /approve 3 = "Yes, and auto-accept edits".'
 */
export function readApproveCommand(arg: string, call: WaitingCall): ApprovalReply | string {
  const options = call.approvalOptions ? orderApprovalOptions(call.approvalOptions) : null;
  const typed = arg.trim();
  if (!typed) {
    const once = options?.find(isAllowingOption);
    return once ? { approved: true, optionId: once.id } : { approved: true };
  }
  if (/^\d+$/.test(typed)) {
    if (!options) return `This tool call has no numbered answers: ${describeApproveUsage(call)}.`;
    const chosen = options[Number(typed) - 1];
    if (!chosen) return `No answer ${typed}: ${numberOptions(options)}.`;
    return { approved: isAllowingOption(chosen), optionId: chosen.id };
  }
  if (/^(a|always)$/i.test(typed)) {
    if (!options) return call.alwaysOffered ? { approved: true, always: true } : 'The agent does not offer "always" for this tool call: /approve approves it once.';
    const always = options.filter((o) => o.kind === 'allow_always');
    if (always.length === 1) return { approved: true, optionId: always[0]!.id };
    if (always.length === 0) return 'The agent does not offer "always" for this tool call: /approve approves it once.';
    const numbered = always.map((o) => `/approve ${options.indexOf(o) + 1} = ${JSON.stringify(o.label)}`);
    return `${always.length === 2 ? 'Two' : always.length} answers allow always here: ${numbered.slice(0, -1).join(', ')} or ${numbered[numbered.length - 1]}.`;
  }
  return `Unknown answer "${typed}": ${describeApproveUsage(call)}.`;
}

/**
 * How to answer `call` from the terminal, for the transcript's line about it.
 *
 * @example describeApproveUsage({ alwaysOffered: true }) // '/approve, /approve always or /reject [reason]'
 * describeApproveUsage({ alwaysOffered: true, approvalLabels: { always: 'Always allow in this chat' } }) // '/approve, /approve always ("Always allow in this chat") or /reject [reason]'
 */
export function describeApproveUsage(call: WaitingCall): string {
  if (call.approvalOptions) return `/approve [n] or /reject [reason] (${numberOptions(orderApprovalOptions(call.approvalOptions))})`;
  if (!call.alwaysOffered) return '/approve or /reject [reason]';
  // The agent's words say what "always" covers ("Always allow in this chat"): the user reads them before choosing.
  const always = call.approvalLabels?.always;
  return `/approve, /approve always${always ? ` (${JSON.stringify(always)})` : ''} or /reject [reason]`;
}

function numberOptions(options: readonly ApprovalOption[]): string {
  return options.map((o, i) => `${i + 1} = ${JSON.stringify(o.label)}`).join(', ');
}
