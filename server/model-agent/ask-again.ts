/**
 * `/ask-again`: the command that undoes "Always allow in this chat", answered without the model.
 * Only an agent with a tool that asks (besides switching a skill on) offers it.
 */
import { formatList } from '../../shared/format.ts';
import type { RunContext } from '../sdk/agent.ts';
import { forgetAlwaysAllowed, readAlwaysAllowed } from './agent-state.ts';

const ASK_AGAIN_TEXT = /^\/ask-again(\s|$)/;

/** The command as the agent declares it. */
export const ASK_AGAIN_COMMAND = { name: 'ask-again', description: 'Ask before every tool call in this chat again (undoes "Always allow in this chat")' };

/**
 * Whether the agent can be told "always", so offers `/ask-again`: one of its own tools or page
 * tools asks before it runs.
 *
 * @example offersAskAgain([{ name: 'deploy', requiresApproval: true }], undefined) // true
 */
export function offersAskAgain(ownTools: readonly { requiresApproval?: boolean }[], pageToolApproval: readonly string[] | undefined): boolean {
  return ownTools.some((t) => t.requiresApproval) || (pageToolApproval?.length ?? 0) > 0;
}

/**
 * Whether the user's text is the command.
 *
 * @example isAskAgain('/ask-again') // true
 */
export function isAskAgain(text: string): boolean {
  return ASK_AGAIN_TEXT.test(text.trim());
}

/**
 * The chat's tools ask before every call again; the reply says which.
 *
 * @example if (isAskAgain(ctx.text)) return answerAskAgain(ctx);
 */
export async function answerAskAgain(ctx: RunContext): Promise<void> {
  const allowed = readAlwaysAllowed(ctx);
  if (allowed.length > 0) forgetAlwaysAllowed(ctx);
  await ctx.reply.text(
    allowed.length > 0
      ? `I will ask again before every call of ${formatList(allowed.map((name) => `\`${name}\``))} in this chat.`
      : 'Nothing in this chat runs without asking: every tool that asks still asks.',
  );
}
