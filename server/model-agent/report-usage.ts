/**
 * The chat's usage report (`ctx.setUsage`: the toolbar's meter, `/usage` in `agentbar chat`) as the
 * model agent keeps it: how full the answering model's context window is, and what the chat has
 * cost so far, whichever model answered.
 */
import type { RunContext } from '../sdk/agent.ts';
import { costOfCall, type CallTokens, type CheckedPrice } from './model-price.ts';

/**
 * Fits the chat's report to the model about to answer. A report made against another model's
 * window would mislead until this model's first call returns (for good without a window); one with
 * a cost stays, as the cost is the chat's, its count moved to this window (the same history goes
 * to this model).
 *
 * @example fitUsageToModel(ctx, chosen.contextWindow);
 */
export function fitUsageToModel(ctx: RunContext, contextWindow: number | undefined): void {
  if (ctx.usage && ctx.usage.size !== contextWindow) {
    ctx.setUsage(ctx.usage.cost && contextWindow ? { used: ctx.usage.used, size: contextWindow, cost: ctx.usage.cost } : null);
  }
}

/**
 * Reports the context after a model call: it holds what the call was sent and what it wrote, as
 * the next call sends both back. A server that gave no counts leaves the last report as it was.
 *
 * @example reportUsage(ctx, part.usage, 8192, undefined);
 */
export function reportUsage(ctx: RunContext, usage: CallTokens, size: number, price: CheckedPrice | undefined): void {
  const input = usage.inputTokens;
  if (typeof input !== 'number' || !Number.isFinite(input) || input < 0) return;
  const output = typeof usage.outputTokens === 'number' && Number.isFinite(usage.outputTokens) && usage.outputTokens > 0 ? usage.outputTokens : 0;
  // A priced call adds to the chat's cost; in another currency than the one kept, the count
  // starts again: the two cannot be added.
  const before = ctx.usage?.cost;
  const call = price ? costOfCall(usage, price) : null;
  const cost = price && call !== null ? { amount: (before?.currency === price.currency ? before.amount : 0) + call, currency: price.currency } : before;
  ctx.setUsage({ used: input + output, size, ...(cost ? { cost } : {}) });
}
