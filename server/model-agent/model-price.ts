/**
 * What a model's calls cost, from the prices its user gives (no provider says its prices over the
 * API): the model agent adds each call's cost to the chat's usage report, so the toolbar's meter
 * and `/usage` say what the chat has cost so far.
 */
import { LIMITS } from '../../shared/limits.ts';

/**
 * A model's prices per million tokens, as its provider lists them: `input` (prompt), `output`
 * (completion) and, where the provider charges less for input it has cached, `cachedInput`.
 * `currency` is an ISO 4217 code such as USD (the default), or a unit such as credits.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
  currency?: string;
}

/** One model call's token counts, as the AI SDK reports them (any of them may be missing). */
export interface CallTokens {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  inputTokenDetails?: { cacheReadTokens?: number | undefined } | undefined;
}

/** A price as checked: its currency always named. */
export type CheckedPrice = ModelPrice & { currency: string };

const DEFAULT_CURRENCY = 'USD';

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * A price given in the options, checked; `undefined` for none. Throws a `TypeError` naming the
 * option for a price that is not a number of 0 or more, or a currency the chat cannot keep.
 *
 * @example checkPrice({ input: 0.15, output: 0.6 }, 'price') // { input: 0.15, output: 0.6, currency: 'USD' }
 */
export function checkPrice(value: ModelPrice | undefined, name: string): CheckedPrice | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new TypeError(`${name} must be { input, output } in a currency per million tokens`);
  for (const key of ['input', 'output', 'cachedInput'] as const) {
    const price = value[key];
    if (price === undefined && key === 'cachedInput') continue;
    if (!isCount(price)) throw new TypeError(`${name}.${key} must be a price per million tokens, 0 or more, not ${typeof price === 'number' ? String(price) : JSON.stringify(price)}`);
  }
  const currency = typeof value.currency === 'string' ? value.currency.trim() : value.currency === undefined ? DEFAULT_CURRENCY : '';
  if (currency.length < 1 || currency.length > LIMITS.maxCurrencyLength) {
    throw new TypeError(`${name}.currency must be a code such as USD (1 to ${LIMITS.maxCurrencyLength} characters), not ${JSON.stringify(value.currency)}`);
  }
  return { input: value.input, output: value.output, ...(value.cachedInput !== undefined ? { cachedInput: value.cachedInput } : {}), currency };
}

/**
 * What one call cost at `price`: input the provider read from its cache at `cachedInput` (when
 * given), the rest of the input at `input`, and the output at `output`. Null when the call came
 * back without an input count (a server not asked for counts): nothing is known.
 *
 * @example costOfCall({ inputTokens: 1000, outputTokens: 100 }, { input: 2, output: 8 }) // 0.0028
 */
export function costOfCall(tokens: CallTokens, price: ModelPrice): number | null {
  if (!isCount(tokens.inputTokens)) return null;
  const output = isCount(tokens.outputTokens) ? tokens.outputTokens : 0;
  const cached = isCount(tokens.inputTokenDetails?.cacheReadTokens) ? Math.min(tokens.inputTokenDetails.cacheReadTokens, tokens.inputTokens) : 0;
  const fresh = tokens.inputTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / 1_000_000;
}
