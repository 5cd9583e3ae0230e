/**
 * Runs one tool call the model made, through agentbar, and gives the result back as the AI SDK
 * wants it: approval when the tool asks (with "Always allow in this chat"), a rejection as an error
 * result the model reads, and a tool not offered in this step as a failed call.
 */
import type { ToolResultPart } from 'ai';
import { LIMITS } from '../../shared/limits.ts';
import { truncateText } from '../../shared/truncate.ts';
import { ToolDeniedError, type RunContext } from '../sdk/agent.ts';
import { allowAlways, readAlwaysAllowed } from './agent-state.ts';
import type { ToolPlace } from './offered-tools.ts';
import { withoutPicture } from './tool-pictures.ts';
import { ASKS_EVERY_TIME } from './note-tools.ts';

const ALWAYS_LABEL = 'Always allow in this chat';

/**
 * The call's outcome; `place` is where the tool runs, undefined for a tool not offered in this step.
 *
 * @example const { output, isError } = await callOfferedTool(ctx, 'query_page', { selector: 'h1' }, places.get('query_page'));
 */
export async function callOfferedTool(ctx: RunContext, name: string, input: unknown, place: ToolPlace | undefined): Promise<{ output: unknown; isError: boolean }> {
  const args = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (!place) {
    // Not offered in this step (made up, or behind a skill that is off): shown as a failed call,
    // so the user sees what the model tried, and the model reads why it did not run.
    const shown = truncateText(name, LIMITS.maxToolNameLength);
    const missing = `There is no tool named ${shown} now`;
    return ctx.callTool({
      name: shown,
      input: args,
      runtime: 'cli',
      execute: () => {
        throw new Error(missing);
      },
    });
  }
  try {
    // Switching a skill on (it changes the system prompt) and adding a note always ask; any other tool that asks
    // may be allowed for the rest of the chat, so a user is not asked twenty times in one task.
    if (!place.requiresApproval || ASKS_EVERY_TIME.has(name)) {
      return await ctx.callTool({ name, input: args, runtime: place.runtime, requiresApproval: place.requiresApproval });
    }
    if (readAlwaysAllowed(ctx).includes(name)) return await ctx.callTool({ name, input: args, runtime: place.runtime });
    const call = ctx.startToolCall({ name, input: args, runtime: place.runtime, requiresApproval: true, alwaysOffered: true, approvalLabels: { always: ALWAYS_LABEL } });
    const answer = await call.requestApproval();
    if (answer.approved && answer.always) allowAlways(ctx, name);
    return await call.result;
  } catch (error) {
    if (error instanceof ToolDeniedError) return { output: error.message, isError: true };
    throw error;
  }
}

/**
 * A tool result as the AI SDK wants it back; a picture in it is sent apart (tool-pictures.ts).
 *
 * @example toResultOutput('done', false) // { type: 'text', value: 'done' }
 */
export function toResultOutput(output: unknown, isError: boolean): ToolResultPart['output'] {
  if (isError) return { type: 'error-text', value: typeof output === 'string' ? output : JSON.stringify(output) ?? 'error' };
  if (typeof output === 'string') return { type: 'text', value: output };
  return { type: 'json', value: (withoutPicture(output) ?? null) as never };
}
