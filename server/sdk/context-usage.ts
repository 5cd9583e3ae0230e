/**
 * An agent's context usage (tokens in its context window, the window's size, what the session
 * cost), checked before it reaches the state every client shows: it comes from another program
 * (an ACP agent's `usage_update`) or an agent author's code.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { ContextUsage } from '../../shared/schemas.ts';

/** What `ctx.setUsage` takes: token counts may be fractional (an estimate), a cost is optional. */
export interface ContextUsageInput {
  /** Tokens in the agent's context now. */
  used: number;
  /** The context window's size in tokens. */
  size: number;
  /** What the session has cost so far, in `currency` (USD, EUR, or a unit such as credits). */
  cost?: { amount: number; currency: string } | null | undefined;
}

/** A value as an error message shows it: NaN as NaN, not JSON's null. */
function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

/**
 * The usage as the state holds it: whole token counts, a trimmed currency. Throws a TypeError
 * naming what is wrong, so an agent's bug fails its run with a reason rather than showing nonsense.
 *
 * @example normalizeUsage({ used: 41_250.4, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
 * // { used: 41250, size: 200000, cost: { amount: 0.42, currency: 'USD' } }
 */
export function normalizeUsage(input: ContextUsageInput): ContextUsage {
  if (typeof input !== 'object' || input === null) throw new TypeError(`setUsage takes { used, size, cost? }, not ${show(input)}`);
  const { used, size, cost } = input;
  if (!isCount(used)) throw new TypeError(`usage.used must be a number of tokens, 0 or more, not ${show(used)}`);
  if (!isCount(size) || Math.round(size) < 1) throw new TypeError(`usage.size must be the context window's size in tokens, 1 or more, not ${show(size)}`);
  const usage: ContextUsage = { used: Math.round(used), size: Math.round(size) };
  if (cost === undefined || cost === null) return usage;
  if (typeof cost !== 'object' || !isCount(cost.amount)) throw new TypeError(`usage.cost.amount must be a number, 0 or more, not ${show((cost as { amount?: unknown })?.amount)}`);
  const currency = typeof cost.currency === 'string' ? cost.currency.trim() : '';
  if (!currency || currency.length > LIMITS.maxCurrencyLength) {
    throw new TypeError(`usage.cost.currency must be a code such as USD (1 to ${LIMITS.maxCurrencyLength} characters), not ${show(cost.currency)}`);
  }
  return { ...usage, cost: { amount: cost.amount, currency } };
}

/** Whether two usages read the same, so an unchanged report sends nothing to clients. */
export function isSameUsage(a: ContextUsage | undefined, b: ContextUsage): boolean {
  return a !== undefined && a.used === b.used && a.size === b.size && a.cost?.amount === b.cost?.amount && a.cost?.currency === b.cost?.currency;
}
