/**
 * What the step loop does when a model refuses a request before writing a word: one that refused
 * for being offered tools is asked again without them, and one that refused a message's images or
 * PDFs (or a kind of them) is asked again without those. A model that cannot take tools or any
 * images at all is remembered, so it is asked so from then on, until the server restarts.
 */
import { UnsupportedFunctionalityError, type ModelMessage } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import { describeLeftOut, withoutMedia } from './attachments.ts';
import { describeModelError } from './describe-model-error.ts';
import { isContentRefusal, isMediaRefusal, isToolsRefusal } from './refusals.ts';

/** By model id, the models that refused tools, and those that refused images or PDFs. */
export interface RefusedModels {
  tools: Set<string>;
  media: Set<string>;
}

/** The step that failed: which model, what it was sent. */
export interface FailedStep {
  modelId: string;
  messages: ModelMessage[];
  toolsOffered: boolean;
}

/** Ask again without tools, or with `messages` (the same without their images or PDFs). */
export type Retry = { withoutTools: true } | { withoutTools: false; messages: ModelMessage[] };

/** Where the retry is told: the agent's log (with the model's base URL) and the reply's notices. */
export interface RetryReport {
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  baseUrl: string | undefined;
}

/**
 * Empty: no model has refused anything yet.
 *
 * @example const refused = createRefusedModels();
 */
export function createRefusedModels(): RefusedModels {
  return { tools: new Set(), media: new Set() };
}

/**
 * How to ask again after `error`, which came before the model wrote anything; null when asking
 * again cannot help. Records a model that refuses tools or media for good in `refused`.
 *
 * @example const retry = planRetry(ctx, error, { modelId, messages, toolsOffered: true }, refused, { log, baseUrl });
 */
export function planRetry(ctx: RunContext, error: unknown, step: FailedStep, refused: RefusedModels, report: RetryReport): Retry | null {
  if (step.toolsOffered && isToolsRefusal(error)) {
    refused.tools.add(step.modelId);
    report.log('warn', `The model refused a request that offered tools (${describeModelError(error, report.baseUrl)}); it is asked without them from now on: no page tools or skills for it until the server restarts.`);
    ctx.reply.notice({ severity: 'warning', title: 'This model cannot call tools', description: "It answers without the page's tools and skills." });
    return { withoutTools: true };
  }
  const refusedMedia = isMediaRefusal(error);
  if (refusedMedia || isContentRefusal(error) || UnsupportedFunctionalityError.isInstance(error)) {
    // Refused for its images or PDFs, or for a kind of them (a GIF, a PDF the provider cannot
    // send): only a model that sees no images at all is asked without them from now on.
    const stripped = withoutMedia(step.messages);
    if (stripped.leftOut.length > 0) {
      if (refusedMedia && !refused.media.has(step.modelId)) {
        refused.media.add(step.modelId);
        report.log('warn', `The model refused a message's images or PDFs (${describeModelError(error, report.baseUrl)}); they are left out from now on, until the server restarts.`);
      }
      ctx.reply.notice(describeLeftOut(stripped.leftOut, refusedMedia));
      return { withoutTools: false, messages: stripped.messages };
    }
  }
  return null;
}
