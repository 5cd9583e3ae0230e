/**
 * One model call of a run: streams its text and reasoning to the reply as they come (a leading
 * `<think>` block as reasoning), collects the tool calls it makes, reports usage when the step
 * finishes, and says whether the output limit cut it off. A failed call is returned, not thrown,
 * with whether anything was written yet, so the step loop can ask again; Stop throws an AbortError.
 */
import { streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import type { CheckedPrice } from './model-price.ts';
import { reportUsage } from './report-usage.ts';
import { createThinkSplitter, type ThinkPiece } from './think-tags.ts';

/** What a step sends, and how. */
export interface StepRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  maxRetries: number;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  splitThinkTags: boolean;
  /** The window (and price) usage is reported against; none: nothing is reported. */
  contextWindow: number | undefined;
  price: CheckedPrice | undefined;
}

/** A tool call as the model made it. */
export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export type StepResult =
  /** `cutOff`: the model stopped at its output limit, not because it was done. */
  | { ok: true; text: string; calls: ModelToolCall[]; cutOff: boolean }
  /** `wroteNothing`: failed before a word or a call, so it may be asked again. */
  | { ok: false; error: unknown; wroteNothing: boolean };

function abortError(): Error {
  const e = new Error('The run was stopped');
  e.name = 'AbortError';
  return e;
}

/**
 * Streams one model call into the run's reply.
 *
 * @example const step = await streamStep(ctx, { model, system, messages, tools: set, maxRetries: 2, splitThinkTags: true, contextWindow: undefined, price: undefined });
 */
export async function streamStep(ctx: RunContext, request: StepRequest): Promise<StepResult> {
  const result = streamText({
    model: request.model,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    abortSignal: ctx.signal,
    maxRetries: request.maxRetries,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    // Errors come through the stream below; the default handler would print them.
    onError: () => {},
  });
  const calls: ModelToolCall[] = [];
  let text = '';
  let cutOff = false;
  const think = request.splitThinkTags ? createThinkSplitter() : null;
  const write = async (pieces: ThinkPiece[]) => {
    for (const piece of pieces) {
      if (piece.kind === 'reasoning') await ctx.reply.reasoning(piece.text);
      else {
        text += piece.text;
        await ctx.reply.text(piece.text);
      }
    }
  };
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        await write(think ? think.push(part.text) : [{ kind: 'text', text: part.text }]);
      } else if (part.type === 'reasoning-delta') {
        await ctx.reply.reasoning(part.text);
      } else if (part.type === 'tool-call') {
        calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
      } else if (part.type === 'finish-step') {
        if (part.finishReason === 'length') cutOff = true;
        if (request.contextWindow) reportUsage(ctx, part.usage, request.contextWindow, request.price);
      } else if (part.type === 'error') {
        throw part.error;
      } else if (part.type === 'abort') {
        throw abortError();
      }
    }
    if (think) await write(think.end());
  } catch (error) {
    if (ctx.signal.aborted) throw abortError();
    return { ok: false, error, wroteNothing: text === '' && calls.length === 0 };
  }
  return { ok: true, text, calls, cutOff };
}
