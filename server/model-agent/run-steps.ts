/**
 * The step loop of a run: each step offers the tools and the system prompt as they are now, streams
 * one model call, runs the tool calls it made and feeds their results back, until the model answers
 * without calls or `maxSteps` is reached. A refusal before a word is written is asked again without
 * what was refused; any other failure ends the run with a readable reason.
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import { callOfferedTool, toResultOutput } from './call-offered-tool.ts';
import { describeModelError } from './describe-model-error.ts';
import type { ChosenModel } from './model-catalog.ts';
import { buildOfferedTools, offerNoTools, type ToolOffer } from './offered-tools.ts';
import { planRetry, type RefusedModels } from './refusal-retry.ts';
import { buildSystemPrompt, type PromptExtras, type PromptOptions } from './run-prompt.ts';
import type { Skill } from './skills.ts';
import type { SkillSource } from './skill-source.ts';
import { streamStep } from './stream-step.ts';
import { picturesMessage } from './tool-pictures.ts';

/** What the loop needs of the agent: its options, skills, and the models that refused. */
export interface StepLoop {
  maxSteps: number;
  maxRetries: number;
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  splitThinkTags: boolean;
  prompt: PromptOptions;
  tools: ToolOffer;
  skills: SkillSource;
  /** What each step adds to the prompt from outside the chat (soul, other chats, skill context). */
  extras?: (ctx: RunContext, skills: readonly Skill[]) => Promise<PromptExtras>;
  refused: RefusedModels;
  baseUrl: string | undefined;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** The run: the model that answers, what it is sent first, and whether it is asked without tools. */
export interface RunStart {
  chosen: ChosenModel;
  messages: ModelMessage[];
  toolsRefused: boolean;
}

/** Told, so a reply the output limit cut off mid-sentence does not read as a finished one. */
function noticeCutOff(ctx: RunContext, maxOutputTokens: number | undefined): void {
  const limit = maxOutputTokens !== undefined ? `its ${maxOutputTokens.toLocaleString('en')}-token output limit (maxOutputTokens)` : 'the output limit its server sets';
  ctx.reply.notice({ severity: 'warning', title: 'The reply was cut off', description: `The model stopped at ${limit}. Ask it to go on.` });
}

/**
 * Runs the steps of one run into its reply: the final text once the model answers without calls,
 * null when it was stopped after `maxSteps`. Throws a readable Error when the model fails, and an
 * AbortError on Stop.
 *
 * @example await runSteps(ctx, { chosen, messages, toolsRefused: false }, loop);
 */
export async function runSteps(ctx: RunContext, start: RunStart, loop: StepLoop): Promise<string | null> {
  const { chosen } = start;
  let { messages, toolsRefused } = start;
  for (let step = 0; step < loop.maxSteps; step++) {
    const skills = await loop.skills.get();
    const { set, places } = toolsRefused ? offerNoTools() : buildOfferedTools(ctx, skills, loop.tools);
    const result = await streamStep(ctx, {
      model: chosen.model,
      system: buildSystemPrompt(ctx, skills, loop.prompt, toolsRefused, (await loop.extras?.(ctx, skills)) ?? {}),
      messages,
      tools: set,
      maxRetries: loop.maxRetries,
      temperature: loop.temperature,
      maxOutputTokens: loop.maxOutputTokens,
      splitThinkTags: loop.splitThinkTags,
      contextWindow: chosen.contextWindow,
      price: chosen.price,
    });
    if (!result.ok) {
      const toolsOffered = !toolsRefused && Object.keys(set).length > 0;
      const retry = result.wroteNothing ? planRetry(ctx, result.error, { modelId: chosen.id, messages, toolsOffered }, loop.refused, loop) : null;
      if (!retry) throw new Error(describeModelError(result.error, loop.baseUrl));
      if (retry.withoutTools) toolsRefused = true;
      else messages = retry.messages;
      step--;
      continue;
    }
    if (result.cutOff) noticeCutOff(ctx, loop.maxOutputTokens);
    if (result.calls.length === 0) return result.text;
    const { text, calls } = result;
    messages.push({
      role: 'assistant',
      content: [...(text ? [{ type: 'text' as const, text }] : []), ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input }))],
    });
    const results: ToolResultPart[] = [];
    const outcomes: { toolName: string; output: unknown; isError: boolean }[] = [];
    for (const call of calls) {
      const outcome = await callOfferedTool(ctx, call.toolName, call.input, places.get(call.toolName));
      results.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: toResultOutput(outcome.output, outcome.isError) });
      outcomes.push({ toolName: call.toolName, ...outcome });
    }
    messages.push({ role: 'tool', content: results });
    const pictures = picturesMessage(outcomes);
    if (pictures) messages.push(pictures);
  }
  ctx.reply.notice({ title: `Stopped after ${loop.maxSteps} model steps`, description: 'Send a message to go on.' });
  return null;
}
